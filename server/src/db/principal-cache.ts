import {
  AliasNode,
  TableNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Database } from './schema.ts';

/**
 * What a bearer token resolved to a moment ago (decision 137): its principal with the session's or key's
 * dates (plugins/principal-resolver.ts), keyed by the token itself, so that a burst of requests of
 * one member costs one look-up instead of two queries each, and a hit neither hashes nor awaits.
 *
 * Correct, not merely short: every write to a table the principal is read from (sessions, users,
 * user_roles, roles, api_keys, committee_memberships) empties the cache when it is sent, when it returns and when its
 * transaction ends, and a look-up that overlapped such a write is not kept. Other instances hear
 * of it through `onInvalidate` (Redis), and `ttlMs` bounds what a lost message could leave. The
 * expiry rules (idle, absolute, a key's date) are checked on every hit against the clock, so a
 * cached entry never outlives them.
 */
export class PrincipalCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private epoch = 0;
  /** Called after each local invalidation (to tell other instances). */
  onInvalidate: (() => void) | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The state a look-up starts from; pass it to `set`. */
  mark(): number {
    return this.epoch;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps a look-up's result unless something was written since it began. */
  set(key: string, value: T, mark: number): void {
    if (this.ttlMs <= 0 || mark !== this.epoch) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
  }

  /** Forgets everything; `remote` when another instance said so (not passed on again). */
  invalidate(remote = false): void {
    this.epoch += 1;
    this.entries.clear();
    if (!remote) this.onInvalidate?.();
  }
}

/** The tables a principal is read from. */
const PRINCIPAL_TABLES = new Set<string>([
  'sessions',
  'users',
  'user_roles',
  'roles',
  'api_keys',
  // Whether the person has memberships (decision 189).
  'committee_memberships',
]);

function writtenTable(node: RootOperationNode): string | undefined {
  const target: OperationNode | undefined =
    node.kind === 'InsertQueryNode'
      ? node.into
      : node.kind === 'UpdateQueryNode'
        ? node.table
        : node.kind === 'DeleteQueryNode'
          ? node.from.froms[0]
          : undefined;
  if (!target) return undefined;
  const table = AliasNode.is(target) ? target.node : target;
  return TableNode.is(table) ? table.table.identifier.name : undefined;
}

/** Kysely plugin: a write to a principal table empties the cache before and after it runs. */
class InvalidateOnWrite implements KyselyPlugin {
  private readonly writes = new WeakSet<object>();
  constructor(private readonly onWrite: () => void) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const table = writtenTable(args.node);
    if (table && PRINCIPAL_TABLES.has(table)) {
      this.writes.add(args.queryId);
      this.onWrite();
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.writes.has(args.queryId)) this.onWrite();
    return args.result;
  }
}

/**
 * The app's database handle with the cache kept current: the plugin on every query, and after
 * every transaction that saw a principal write begin (PostgreSQL: another connection could read
 * the old rows until the commit).
 */
export function invalidatingKysely<T>(kysely: Kysely<Database>, cache: PrincipalCache<T>): Kysely<Database> {
  let writes = 0;
  const withPlugin = kysely.withPlugin(
    new InvalidateOnWrite(() => {
      writes += 1;
      cache.invalidate();
    }),
  );
  const transaction = withPlugin.transaction.bind(withPlugin);
  withPlugin.transaction = (() => {
    const builder = transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = async (fn) => {
      const before = writes;
      try {
        return await execute(fn);
      } finally {
        if (writes !== before) cache.invalidate();
      }
    };
    return builder;
  }) as typeof withPlugin.transaction;
  return withPlugin;
}
