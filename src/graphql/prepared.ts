// Queries parsed and validated once: a query text seen before (clients send the same few queries again and again)
// skips graphql-js's parse and validate, whose result depends only on the schema and the text. And which operations may
// be answered from the response cache: reads that do not ask for the caller's rate-limit state.
import {
  BREAK,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/** A query's document, or what stops it: a syntax error, or the validation's errors. */
export type Prepared =
  | { document: DocumentNode; syntax?: undefined; invalid?: undefined }
  | { document?: undefined; syntax: GraphQLError; invalid?: undefined }
  | { document?: undefined; syntax?: undefined; invalid: readonly GraphQLError[] };

/** How many valid query texts are kept (the oldest goes first). */
const KEPT = 500;

export class PreparedQueries {
  private readonly kept = new Map<string, DocumentNode>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly maxTokens: number,
  ) {}

  /** The parsed, valid document of a query text (kept for the next time), or why it is not one (never kept). */
  prepare(query: string): Prepared {
    const known = this.kept.get(query);
    if (known) return { document: known };
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.maxTokens });
    } catch (err) {
      if (err instanceof GraphQLError) return { syntax: err };
      throw err;
    }
    const invalid = validate(this.schema, document, specifiedRules, { maxErrors: 20 });
    if (invalid.length) return { invalid };
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(query, document);
    return { document };
  }
}

/**
 * Whether an operation's answer depends only on the database and the caller: a query (never a mutation) whose document
 * nowhere asks for `rateLimit`, which shows this very request's count.
 */
export function answerIsCacheable(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  if (operation.operation !== 'query') return false;
  let asksRate = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== 'rateLimit') return undefined;
      asksRate = true;
      return BREAK;
    },
  });
  return !asksRate;
}
