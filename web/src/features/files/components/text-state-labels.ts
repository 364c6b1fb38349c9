import type { TextState } from './text-state';

/**
 * The contract's `TEXT_STATE_LABELS` (contracts/search) for the admins' line on the file page,
 * written out: importing that module at run time would add zod's tuple schema to the zod code
 * that /files loads first (decision 129). text-state.test.tsx proves they equal the contract's.
 */
export const TEXT_STATE_TEXTS: Record<TextState, string> = {
  pending: 'wird verarbeitet',
  done: 'durchsuchbar',
  empty: 'Inhalt nicht durchsuchbar',
  failed: 'nicht durchsuchbar',
  none: 'nur nach Titel durchsuchbar',
};
