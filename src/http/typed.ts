// Routes typed from their JSON schemas: a route's body, params and query get their TypeScript types from the schema it declares.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';

/**
 * The app as a route file registers on it: json-schema-to-ts derives each type from the `as const` schema at compile
 * time (nothing at run time: the schemas stay plain objects for our lazy Ajv compiler, http/validation.ts).
 */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<JsonSchemaToTsProvider>();
}
