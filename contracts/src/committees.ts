import { z } from 'zod';
import { dataOf, idSchema, requiredText, roleSchema, titleText } from './common.ts';
import { FOLDER_MESSAGES } from './file-messages.ts';
import { COMMITTEE_KINDS, END_REASONS, MEMBER_FUNCTIONS } from './committee-labels.ts';

/**
 * Gremien, Amtsperioden and Mitgliedschaften (decision 189): the committees of the cooperative,
 * their terms and who holds which function in them. A membership that is active today gives its
 * holder the committee's role; the resolutions, minutes and the Vertreterversammlung read the
 * rules kept here.
 */

export * from './committee-labels.ts';

export const QUORUM_RULES = ['more_than_half', 'at_least_half', 'two_thirds', 'none'] as const;
export type QuorumRule = (typeof QUORUM_RULES)[number];
export const QUORUM_LABELS: Record<QuorumRule, string> = {
  more_than_half: 'mehr als die Hälfte der Mitglieder',
  at_least_half: 'mindestens die Hälfte der Mitglieder',
  two_thirds: 'mindestens zwei Drittel der Mitglieder',
  none: 'ohne Mindestzahl',
};

export const MAJORITY_RULES = ['simple', 'two_thirds', 'three_quarters'] as const;
export type MajorityRule = (typeof MAJORITY_RULES)[number];
export const MAJORITY_LABELS: Record<MajorityRule, string> = {
  simple: 'einfache Mehrheit',
  two_thirds: 'Zwei-Drittel-Mehrheit',
  three_quarters: 'Drei-Viertel-Mehrheit',
};
export const MAJORITY_BASES = ['cast', 'members'] as const;
export type MajorityBasis = (typeof MAJORITY_BASES)[number];
export const MAJORITY_BASIS_LABELS: Record<MajorityBasis, string> = {
  cast: 'der abgegebenen Stimmen',
  members: 'der Mitglieder',
};
export const TIE_RULES = ['rejected', 'chair'] as const;
export type TieRule = (typeof TIE_RULES)[number];
export const TIE_LABELS: Record<TieRule, string> = {
  rejected: 'Stimmengleichheit bedeutet Ablehnung',
  chair: 'bei Stimmengleichheit entscheidet die Stimme des Vorsitzes',
};

export const COMMITTEE_MESSAGES = {
  nameTaken: 'Ein Gremium dieses Namens gibt es bereits.',
  roleTaken: 'Die Rolle dieses Namens gehört bereits zu einem anderen Gremium.',
  adminRole: 'Ein Gremium kann nicht die Rolle Admin oder Super-Admin vergeben.',
  folderTaken:
    'Oben im Baum gibt es schon einen Ordner dieses Namens. Bitte wählen Sie ihn als Ordner des Gremiums oder einen anderen Namen.',
  hasTerms: 'Ein Gremium mit Amtsperioden kann nicht gelöscht werden. Bitte zuerst die Amtsperioden löschen.',
  folderNotFound: 'Den gewählten Ordner gibt es nicht.',
  termOverlap: 'Diese Amtsperiode überschneidet sich mit einer anderen Amtsperiode des Gremiums.',
  termHasMembers: 'Eine Amtsperiode mit Mitgliedschaften kann nicht gelöscht werden.',
  termEndBeforeStart: 'Das Ende muss nach dem Beginn liegen.',
  termTooLong: 'Eine Amtsperiode dauert höchstens zehn Jahre.',
  termDatesOutside: 'Die Mitgliedschaften dieser Amtsperiode liegen nicht alle im neuen Zeitraum.',
  reopenSuperAdmin: 'Nur ein Super-Admin darf eine archivierte Amtsperiode wieder öffnen oder schließen.',
  termNotFound: 'Diese Amtsperiode gibt es in diesem Gremium nicht.',
  userNotFound: 'Diese Person gibt es nicht.',
  outsideTerm: 'Die Mitgliedschaft muss innerhalb der Amtsperiode liegen.',
  untilBeforeFrom: '„Bis“ darf nicht vor „von“ liegen.',
  twoChairs: 'In diesem Zeitraum hat das Gremium bereits einen Vorsitz.',
  alreadyMember: 'Diese Person ist in diesem Zeitraum bereits Mitglied des Gremiums.',
  rankRequired: 'Für ein Ersatzmitglied bitte den Rang angeben (1, 2, 3 …).',
  rankOnlySubstitutes: 'Einen Rang haben nur Ersatzmitglieder.',
  reasonNeedsEarlyEnd:
    'Einen Grund gibt es nur für eine Mitgliedschaft, die vor dem Ende der Amtsperiode endet.',
  noSuccessor: 'Für diese Mitgliedschaft gibt es kein Ersatzmitglied, das nachrücken kann.',
  successorNotDue:
    'Ein Nachrücken ist erst möglich, wenn die Mitgliedschaft vor dem Ende der Amtsperiode endet.',
  alreadySucceeded: 'Für diese Mitgliedschaft ist bereits jemand nachgerückt.',
  dateInvalid: (field: string) => `${field}: bitte ein Datum im Format JJJJ-MM-TT angeben.`,
  signersRequired: 'Bitte mindestens eine Funktion wählen, die die Niederschrift unterschreibt.',
} as const;

const dateText = (field: string) =>
  z
    .string({ error: COMMITTEE_MESSAGES.dateInvalid(field) })
    .trim()
    .refine(isCalendarDate, { error: COMMITTEE_MESSAGES.dateInvalid(field) });

/** `YYYY-MM-DD` naming a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && year <= 2200 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** "Amtsperiode 2026–2030", with an en dash: the same title the period folder has. */
export const termTitle = (start: string, end: string) =>
  `Amtsperiode ${start.slice(0, 4)}–${end.slice(0, 4)}`;

/** 30.06.2030 from 2030-06-30. */
export const germanDate = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

export const committeeRulesSchema = z.object({
  quorum: z.enum(QUORUM_RULES),
  majority: z.enum(MAJORITY_RULES),
  majority_basis: z.enum(MAJORITY_BASES),
  abstentions_count: z.boolean(),
  tie: z.enum(TIE_RULES),
  circular_allowed: z.boolean(),
  circular_objection_stops: z.boolean(),
  minutes_signers: z
    .array(z.enum(MEMBER_FUNCTIONS))
    .min(1, { error: COMMITTEE_MESSAGES.signersRequired })
    .max(MEMBER_FUNCTIONS.length),
  substitutes_see_papers: z.boolean(),
  /** Einberufungsfrist in days (the Vertreterversammlung's invitation warns below it). */
  notice_days: z.number().int().min(0).max(120),
});
export type CommitteeRules = z.infer<typeof committeeRulesSchema>;

/** GdW Mustersatzung defaults: simple majority of the votes cast, abstentions do not count, a tie rejects. */
export const DEFAULT_COMMITTEE_RULES: CommitteeRules = {
  quorum: 'more_than_half',
  majority: 'simple',
  majority_basis: 'cast',
  abstentions_count: false,
  tie: 'rejected',
  circular_allowed: true,
  circular_objection_stops: true,
  minutes_signers: ['vorsitz', 'schriftfuehrung'],
  substitutes_see_papers: false,
  notice_days: 14,
};

/** Rules as stored (JSON), completed with the defaults for keys a later version added. */
export function parseCommitteeRules(text: string): CommitteeRules {
  const parsed = committeeRulesSchema.partial().safeParse(JSON.parse(text));
  return { ...DEFAULT_COMMITTEE_RULES, ...(parsed.success ? parsed.data : {}) };
}

export const termSchema = z.object({
  id: z.number().int(),
  committee_id: z.number().int(),
  start: z.string(),
  end: z.string(),
  title: z.string(),
  folder_id: z.number().int().nullable(),
  /** The term has ended: its folder is read-only ("Archiv"). */
  archived: z.boolean(),
  /** A Super-Admin reopened the archived folder for a correction. */
  reopened: z.boolean(),
});
export type Term = z.infer<typeof termSchema>;

export const committeeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(COMMITTEE_KINDS),
  role: roleSchema,
  folder: z.object({ id: z.number().int(), breadcrumb: z.string() }).nullable(),
  rules: committeeRulesSchema,
  current_term: termSchema.nullable(),
  /** Voting members (not Ersatzmitglieder) of the current term today. */
  member_count: z.number().int(),
});
export type Committee = z.infer<typeof committeeSchema>;
export const committeeListResponseSchema = dataOf(z.array(committeeSchema));
export const committeeResponseSchema = dataOf(committeeSchema);

const optionalId = z.union([idSchema, z.null()]).optional();

/**
 * A committee's name is also its role's and, by default, its folder's: at most 50 characters (a
 * role name's length), no slash and no control characters (a folder title's rules).
 */
const committeeName = titleText('Name', 2, 50)
  .refine((value) => !value.includes('/'), { error: FOLDER_MESSAGES.slashInTitle })
  // eslint-disable-next-line no-control-regex
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { error: FOLDER_MESSAGES.controlInTitle });

export const createCommitteeBodySchema = z.object({
  name: committeeName,
  kind: z.enum(COMMITTEE_KINDS, { error: 'Bitte eine Art des Gremiums wählen.' }),
  /** The committee's folder; without one, a folder of the committee's name is created at the top. */
  folder_id: optionalId,
  rules: committeeRulesSchema.partial().optional(),
});
export type CreateCommitteeBody = z.infer<typeof createCommitteeBodySchema>;
export const updateCommitteeBodySchema = z.object({
  name: committeeName,
  kind: z.enum(COMMITTEE_KINDS, { error: 'Bitte eine Art des Gremiums wählen.' }),
  folder_id: optionalId,
  rules: committeeRulesSchema.partial().optional(),
});
export type UpdateCommitteeBody = z.infer<typeof updateCommitteeBodySchema>;

export const termListResponseSchema = dataOf(z.array(termSchema));
export const termResponseSchema = dataOf(termSchema);
const termDates = z.object({ start: dateText('Beginn'), end: dateText('Ende') });
export const createTermBodySchema = termDates.superRefine((value, ctx) => {
  if (value.end <= value.start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: COMMITTEE_MESSAGES.termEndBeforeStart });
  } else if (Number(value.end.slice(0, 4)) - Number(value.start.slice(0, 4)) > 10) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: COMMITTEE_MESSAGES.termTooLong });
  }
});
export type CreateTermBody = z.infer<typeof createTermBodySchema>;
/** `archived`: only a Super-Admin, to reopen an archived term's folder (false) or close it again. */
export const updateTermBodySchema = termDates
  .extend({ archived: z.boolean().optional() })
  .superRefine((value, ctx) => {
    if (value.end <= value.start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: COMMITTEE_MESSAGES.termEndBeforeStart });
    }
  });
export type UpdateTermBody = z.infer<typeof updateTermBodySchema>;

export const memberUserSchema = z.object({
  /** Null once the account was deleted: the history keeps the name. */
  id: z.number().int().nullable(),
  title: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  /** Only to admins, and to fellow members when the member allowed it on the account page. */
  email: z.string().optional(),
});

export const membershipSchema = z.object({
  id: z.number().int(),
  committee_id: z.number().int(),
  term_id: z.number().int(),
  user: memberUserSchema,
  function: z.enum(MEMBER_FUNCTIONS),
  rank: z.number().int().nullable(),
  from: z.string(),
  until: z.string(),
  district: z.string().nullable(),
  reason: z.enum(END_REASONS).nullable(),
  /** Active today (between from and until). */
  active: z.boolean(),
  /** Admins only: the Ersatzmitglied proposed to move up for a membership that ended early. */
  proposed_successor: z.object({ membership_id: z.number().int(), name: z.string() }).nullable().optional(),
});
export type Membership = z.infer<typeof membershipSchema>;
export const membershipListResponseSchema = dataOf(z.array(membershipSchema));
export const membershipResponseSchema = dataOf(membershipSchema);

export const membersQuerySchema = z.object({ term_id: z.optional(idSchema) });

const membershipFields = {
  function: z.enum(MEMBER_FUNCTIONS, { error: 'Bitte eine Funktion wählen.' }),
  rank: z.union([z.number().int().min(1).max(999), z.null()]).optional(),
  district: z.union([requiredText('Wahlbezirk', 1, 100), z.null()]).optional(),
};
export const createMembershipBodySchema = z.object({
  term_id: idSchema,
  user_id: idSchema,
  ...membershipFields,
  /** Default: the term's start and end. */
  from: dateText('Von').optional(),
  until: dateText('Bis').optional(),
});
export type CreateMembershipBody = z.infer<typeof createMembershipBodySchema>;
export const updateMembershipBodySchema = z.object({
  ...membershipFields,
  from: dateText('Von'),
  until: dateText('Bis'),
  reason: z.union([z.enum(END_REASONS, { error: 'Bitte einen Grund wählen.' }), z.null()]).optional(),
});
export type UpdateMembershipBody = z.infer<typeof updateMembershipBodySchema>;

/** What the account page and the user page show of one's own memberships. */
export const ownMembershipSchema = z.object({
  id: z.number().int(),
  committee: z.object({ id: z.number().int(), name: z.string() }),
  term_title: z.string(),
  function: z.enum(MEMBER_FUNCTIONS),
  rank: z.number().int().nullable(),
  from: z.string(),
  until: z.string(),
  active: z.boolean(),
});
export type OwnMembership = z.infer<typeof ownMembershipSchema>;

export const ROLE_SOURCES = ['direct', 'committee'] as const;
export const effectiveRoleSchema = roleSchema.extend({ sources: z.array(z.enum(ROLE_SOURCES)) });
export type EffectiveRole = z.infer<typeof effectiveRoleSchema>;

/** "1 Mitglied", "5 Mitglieder". */
export const memberCountLabel = (count: number) => `${count} ${count === 1 ? 'Mitglied' : 'Mitglieder'}`;

/** `POST /committees/{id}/members/import`: `dry_run=true` (the default) only shows what would happen. */
export const importQuerySchema = z.object({
  term_id: idSchema,
  dry_run: z
    .enum(['true', 'false'], { error: 'dry_run ist true oder false.' })
    .optional()
    .transform((value) => value !== 'false'),
});
export const IMPORT_ACTIONS = ['new_account', 'new_membership', 'changed', 'unchanged', 'error'] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];
export const IMPORT_ACTION_LABELS: Record<ImportAction, string> = {
  new_account: 'Neues Konto mit Einladung und neue Mitgliedschaft',
  new_membership: 'Neue Mitgliedschaft',
  changed: 'Mitgliedschaft wird geändert',
  unchanged: 'Unverändert',
  error: 'Fehler',
};
export const importRowSchema = z.object({
  /** The line in the file (the header is line 1). */
  row: z.number().int(),
  name: z.string(),
  email: z.string(),
  action: z.enum(IMPORT_ACTIONS),
  messages: z.array(z.string()),
});
export type ImportRow = z.infer<typeof importRowSchema>;
export const importResultSchema = z.object({
  dry_run: z.boolean(),
  rows: z.array(importRowSchema),
  counts: z.object({
    new_accounts: z.number().int(),
    new_memberships: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    errors: z.number().int(),
  }),
});
export type ImportResult = z.infer<typeof importResultSchema>;
export const IMPORT_MESSAGES = {
  hasErrors:
    'Die Datei enthält fehlerhafte Zeilen. Bitte korrigieren Sie diese und prüfen Sie die Datei erneut.',
  empty: 'Die Datei enthält keine Zeilen.',
  tooLarge: 'Die Datei ist zu groß (höchstens 10.000 Zeilen).',
  fileTooLarge: 'Die Datei ist zu groß (höchstens 5 MB).',
  missingColumns: (names: string[]) => `Es fehlen die Spalten ${names.join(', ')}.`,
  unknownFunction: (value: string) => `Unbekannte Funktion „${value}“.`,
  invalidEmail: 'Ungültige E-Mail-Adresse.',
  duplicateEmail: (row: number) => `Diese E-Mail-Adresse steht schon in Zeile ${row}.`,
  invalidDate: (field: string, value: string) =>
    `${field}: „${value}“ ist kein Datum (TT.MM.JJJJ oder JJJJ-MM-TT).`,
  outsideTerm: 'Das Datum liegt außerhalb der Amtsperiode.',
  invalidRank: 'Der Rang muss eine ganze Zahl ab 1 sein.',
  nameRequired: 'Vorname und Nachname sind erforderlich.',
  invalidTitle: 'Anrede ist Herr oder Frau.',
  formulaCell: (field: string) =>
    `${field}: Die Zelle beginnt mit einem Formelzeichen (=, + oder @). Bitte entfernen Sie das Zeichen.`,
  functionRequired: 'Bitte eine Funktion angeben (z. B. Mitglied oder Ersatzmitglied).',
  unclosedQuote: (row: number) =>
    `In Zeile ${row} fehlt das schließende Anführungszeichen. Bitte prüfen Sie die Datei.`,
} as const;
