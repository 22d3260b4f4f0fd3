// The limits that keep one query from exhausting the server, checked after validation and before anything runs:
// GitHub's connection rule (a connection asked for `nodes` or `edges` needs `first` or `last`, 1 to 100; one asked only
// its `totalCount` or `pageInfo` needs neither), a node limit (the most objects the connections could return, multiplied
// down the nesting as GitHub counts them), a depth limit, and a bound on the work of measuring itself (fragments spread
// many times). The size of the query text is limited before parsing (routes.ts);
// introspection nested without end (`types { fields { type { fields … } } }`) is refused by graphql-js's own
// MaxIntrospectionDepthRule, one of the specified validation rules.
import {
  getArgumentValues,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { typedError } from './errors.js';

/** GitHub allows 500,000; hublet's resolvers read a database on one process, so it allows fewer. */
const MAX_NODES = 10_000;
const MAX_DEPTH = 15;
const MAX_PAGE = 100;
/** Fields visited while measuring (fragments expanded): beyond this a query is refused as too complex. */
const MAX_VISITS = 20_000;
/**
 * Connections whose items cost no read (a repository's topics come with its row; the rest hublet keeps none of): they
 * do not count toward MAX_NODES, so gh's `repo list -L 100 --json repositoryTopics,labels` fits. What is nested inside
 * them still counts, multiplied by their page size.
 */
const FREE_CONNECTIONS: ReadonlySet<string> = new Set(
  [
    'repositoryTopics',
    'issues',
    'pullRequests',
    'labels',
    'milestones',
    'projects',
    'languages',
    'assignableUsers',
    'mentionableUsers',
    'watchers',
    'forks',
  ].map((f) => `Repository.${f}`),
);

export interface Measured {
  errors: GraphQLError[];
  nodeCount: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');

export function measure(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Record<string, unknown>,
): Measured {
  const errors: GraphQLError[] = [];
  let nodes = 0;
  let visits = 0;
  let deepest = 0;
  let tooComplex = false;

  /** Whether a selection set asks for a connection's items (`nodes` or `edges`), through fragments too; counted as visits. */
  const selectsItems = (set: SelectionSetNode, seen: Set<string>): boolean =>
    set.selections.some((s) => {
      if (++visits > MAX_VISITS) return false;
      if (s.kind === Kind.FIELD) return s.name.value === 'nodes' || s.name.value === 'edges';
      if (s.kind === Kind.INLINE_FRAGMENT) return selectsItems(s.selectionSet, seen);
      const fragment = fragments[s.name.value];
      if (!fragment || seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return selectsItems(fragment.selectionSet, seen);
    });

  const walk = (set: SelectionSetNode, parent: GraphQLNamedType, depth: number, multiplier: number, path: string[]): void => {
    for (const selection of set.selections) {
      if (tooComplex) return;
      if (++visits > MAX_VISITS) {
        tooComplex = true;
        return;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments[selection.name.value];
        if (fragment) walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? parent, depth, multiplier, path);
        continue;
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? parent) : parent;
        walk(selection.selectionSet, type, depth, multiplier, path);
        continue;
      }
      const name = selection.name.value;
      const def =
        name === '__schema'
          ? SchemaMetaFieldDef
          : name === '__type'
            ? TypeMetaFieldDef
            : isObjectType(parent) || isInterfaceType(parent)
              ? parent.getFields()[name]
              : undefined;
      deepest = Math.max(deepest, depth + 1);
      if (!def || !selection.selectionSet) continue; // a leaf or __typename
      const here = [...path, selection.alias?.value ?? name];
      const type = getNamedType(def.type);
      let inner = multiplier;
      if (type.name.endsWith('Connection')) {
        const args = getArgumentValues(def, selection, variables) as { first?: number | null; last?: number | null };
        const count = Math.max(args.first ?? 0, args.last ?? 0);
        let bad = false;
        if (args.first == null && args.last == null && selectsItems(selection.selectionSet, new Set())) {
          errors.push(
            typedError(
              'MISSING_PAGINATION_BOUNDARIES',
              `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
              [selection],
              here,
            ),
          );
          bad = true;
        }
        for (const key of ['first', 'last'] as const) {
          const v = args[key];
          if (v != null && v > MAX_PAGE) {
            errors.push(
              typedError(
                'EXCESSIVE_PAGINATION',
                `Requesting ${v} records on the \`${name}\` connection exceeds the \`${key}\` limit of ${MAX_PAGE} records.`,
                [selection],
                here,
              ),
            );
            bad = true;
          } else if (v != null && v < 1) {
            errors.push(
              typedError(
                'EXCESSIVE_PAGINATION',
                `\`${key}\` on the \`${name}\` connection must be between 1 and ${MAX_PAGE}.`,
                [selection],
                here,
              ),
            );
            bad = true;
          }
        }
        inner = multiplier * (bad ? 1 : count);
        if (!FREE_CONNECTIONS.has(`${parent.name}.${name}`)) nodes += inner;
      }
      walk(selection.selectionSet, type, depth + 1, inner, here);
    }
  };

  const root = operation.operation === 'query' ? schema.getQueryType() : undefined;
  if (root) walk(operation.selectionSet, root, 0, 1, []);
  if (tooComplex) {
    const message = `Query is too complex to run: it selects more than ${fmt(MAX_VISITS)} fields.`;
    return { errors: [typedError('QUERY_TOO_COMPLEX', message, [operation])], nodeCount: nodes };
  }
  if (deepest > MAX_DEPTH)
    errors.push(typedError('MAX_DEPTH_EXCEEDED', `Query has depth of ${deepest}, which exceeds max depth of ${MAX_DEPTH}`, [operation]));
  if (nodes > MAX_NODES) {
    errors.push(
      typedError(
        'MAX_NODE_LIMIT_EXCEEDED',
        `This query requests up to ${fmt(nodes)} possible nodes which exceeds the maximum limit of ${fmt(MAX_NODES)}.`,
        [operation],
      ),
    );
  }
  return { errors, nodeCount: nodes };
}
