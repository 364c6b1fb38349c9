/*
 * The committees' codes and their German names, without zod (decision 189): the audit trail's
 * details name functions, kinds and reasons, and the pages that show them must not load the
 * committees' schemas. `committees.ts` re-exports everything here.
 */

export const COMMITTEE_KINDS = ['aufsichtsrat', 'vertreterversammlung', 'ausschuss', 'sonstiges'] as const;
export type CommitteeKind = (typeof COMMITTEE_KINDS)[number];
export const COMMITTEE_KIND_LABELS: Record<CommitteeKind, string> = {
  aufsichtsrat: 'Aufsichtsrat',
  vertreterversammlung: 'Vertreterversammlung',
  ausschuss: 'Ausschuss',
  sonstiges: 'Sonstiges',
};

/** Functions in a committee, in the order the directory groups them. */
export const MEMBER_FUNCTIONS = [
  'vorsitz',
  'stellvertretung',
  'schriftfuehrung',
  'mitglied',
  'ersatzmitglied',
] as const;
export type MemberFunction = (typeof MEMBER_FUNCTIONS)[number];
export const MEMBER_FUNCTION_LABELS: Record<MemberFunction, string> = {
  vorsitz: 'Vorsitz',
  stellvertretung: 'Stellvertretender Vorsitz',
  schriftfuehrung: 'Schriftführung',
  mitglied: 'Mitglied',
  ersatzmitglied: 'Ersatzmitglied',
};
/** The directory's group headings (plural where a group has several people). */
export const MEMBER_FUNCTION_GROUP_LABELS: Record<MemberFunction, string> = {
  vorsitz: 'Vorsitz',
  stellvertretung: 'Stellvertretender Vorsitz',
  schriftfuehrung: 'Schriftführung',
  mitglied: 'Mitglieder',
  ersatzmitglied: 'Ersatzmitglieder',
};

export const END_REASONS = ['ruecktritt', 'tod', 'ausschluss', 'sonstiges'] as const;
export type EndReason = (typeof END_REASONS)[number];
export const END_REASON_LABELS: Record<EndReason, string> = {
  ruecktritt: 'Rücktritt',
  tod: 'Tod',
  ausschluss: 'Ausschluss',
  sonstiges: 'Sonstiges',
};
