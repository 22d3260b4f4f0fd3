// JSON-schema validation: bodies are checked strictly (no coercion, as GitHub), path and query strings are coerced.
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const common: Options = { allErrors: true, strict: false, useDefaults: true };
  const bodies = new Ajv({ ...common, coerceTypes: false });
  const strings = new Ajv({ ...common, coerceTypes: 'array' });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodies : strings;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
