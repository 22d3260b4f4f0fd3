// JSON-schema validation: bodies are checked strictly (no coercion, as GitHub), path and query strings are coerced.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import type { FastifySchema, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

type LazyValidator = ((data: unknown, dataCxt?: Parameters<ValidateFunction>[1]) => boolean) & {
  errors?: ErrorObject[] | null;
  schemaEnv?: unknown;
};

/**
 * Each route's schema is compiled on its first request, not at start: compiling every route's schemas with Ajv was
 * most of `serve`'s time to ready (node --cpu-prof of the start-up, `make bench`).
 */
const common: Options = { allErrors: true, strict: false, useDefaults: true };

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodies = new Ajv({ ...common, coerceTypes: false });
  const strings = new Ajv({ ...common, coerceTypes: 'array' });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodies : strings;
    let compiled: ValidateFunction | undefined;
    const validate: LazyValidator = (data, dataCxt) => {
      compiled ??= ajv.compile(schema as object);
      const ok = compiled(data, dataCxt) as boolean;
      validate.errors = compiled.errors;
      return ok;
    };
    // Fastify hands the parent object to validators that look like Ajv's (they have schemaEnv), so coercion and
    // defaults can replace a root value (a query string, say); ours passes it on to the compiled function.
    validate.schemaEnv = true;
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

const formBodies = new Ajv({ ...common, coerceTypes: false });
const formValidators = new WeakMap<object, ValidateFunction>();

/**
 * What an API route's body schema says of a body that did not come over the API (one a web form's route built): its
 * failures, as Fastify would have kept them for the route (`attachValidation`), so both front ends meet one judge.
 */
export function bodyVerdict(schema: FastifySchema['body'] & object, body: unknown): FastifySchemaValidationError[] {
  let validate = formValidators.get(schema);
  if (!validate) {
    validate = formBodies.compile(schema);
    formValidators.set(schema, validate);
  }
  return validate(body) ? [] : ((validate.errors ?? []) as FastifySchemaValidationError[]);
}
