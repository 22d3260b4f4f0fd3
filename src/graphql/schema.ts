// The executable schema: the SDL (sdl.ts) with the root fields (query.ts) and the link fields (links.ts) attached. Every
// other field is read from the objects the builders make (accounts.ts, gists.ts, repositories.ts): a value, or a method
// graphql-js calls with the field's arguments.
import { buildSchema, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { LINKS } from './links.js';
import { QUERY } from './query.js';
import { SDL } from './sdl.js';

export function buildGraphqlSchema(): GraphQLSchema {
  const schema = buildSchema(SDL);
  for (const [typeName, resolvers] of Object.entries({ Query: QUERY, ...LINKS })) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`GraphQL: ${typeName} is no object type of the schema`);
    const fields = type.getFields();
    for (const [name, resolve] of Object.entries(resolvers)) {
      if (!fields[name]) throw new Error(`GraphQL: ${typeName}.${name} is not in the schema`);
      fields[name].resolve = resolve as unknown as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  return schema;
}
