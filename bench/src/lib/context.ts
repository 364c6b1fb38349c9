import type { Account, Dataset } from './dataset.ts';
import { freePort, login, type Service } from './portal.ts';

export interface BenchContext {
  quick: boolean;
  /** Length of one load phase of one side in one round, in seconds. */
  phase: number;
  /** Alternating rounds per side of a comparison (compare.ts): quick 3, full 5. */
  rounds: number;
  /**
   * Rounds of the 1 GiB transfers (download, offload, upload): quick 3, full 9. One round is a
   * single transfer, whose speed the page cache's writeback and the disk move by a third and more,
   * so their median needs more rounds than a wrk round of thousands of answers.
   */
  transferRounds: number;
  workDir: string;
  dataset: Dataset;
  portal: Service;
  /** A signed-in token for the account (one login per account and run). */
  token(account: Account): Promise<string>;
  /** A free loopback port for a baseline server. */
  port(): Promise<number>;
}

export function createContext(options: Omit<BenchContext, 'token' | 'port'>): BenchContext {
  const tokens = new Map<string, Promise<string>>();
  return {
    ...options,
    token(account) {
      let token = tokens.get(account.email);
      if (!token) {
        token = login(options.portal.url, account.email, account.password);
        tokens.set(account.email, token);
      }
      return token;
    },
    port: freePort,
  };
}
