import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/** Counts every statement Kysely sends to the database (tests and the benchmark use it). */
export class QueryCounter implements KyselyPlugin {
  count = 0;
  /** Inserts, updates, deletes and merges among them. */
  writes = 0;
  /** The kind of each statement in order (`SelectQueryNode`, `InsertQueryNode`, …). */
  readonly kinds: string[] = [];
  /** Rows the database returned, over all statements. */
  rows = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    this.kinds.push(args.node.kind);
    if (WRITES.has(args.node.kind)) this.writes += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.rows += args.result.rows.length;
    return args.result;
  }
}
