import { z } from 'zod';
import { dataOf, idSchema, requiredText, titleText } from './common.ts';
import { MAJORITY_BASES, MAJORITY_RULES, QUORUM_RULES } from './committees.ts';
import { TALLY_OUTCOMES } from './tally.ts';

/**
 * Beschlüsse (decision 190): motions (Beschlussvorlagen) voted in a meeting or by
 * Umlaufverfahren, and the resolutions of the Beschlussbuch. The count is `tally.ts`.
 */

export const VOTE_MODES = ['offen', 'namentlich', 'geheim'] as const;
export type VoteMode = (typeof VOTE_MODES)[number];
export const VOTE_MODE_LABELS: Record<VoteMode, string> = {
  offen: 'Offen (nur die Zahlen)',
  namentlich: 'Namentlich (wer wie gestimmt hat, wird festgehalten)',
  geheim: 'Geheim (niemand kann sehen, wer wie gestimmt hat)',
};

export const CHOICES = ['ja', 'nein', 'enthaltung'] as const;
export const CHOICE_LABELS: Record<(typeof CHOICES)[number], string> = {
  ja: 'Ja',
  nein: 'Nein',
  enthaltung: 'Enthaltung',
};

export const PROCEDURES = ['sitzung', 'umlauf'] as const;
export type Procedure = (typeof PROCEDURES)[number];
export const PROCEDURE_LABELS: Record<Procedure, string> = {
  sitzung: 'Abstimmung in der Sitzung',
  umlauf: 'Umlaufverfahren',
};

/** Where a motion stands. */
export const MOTION_STATES = [
  'entwurf',
  'abstimmung',
  'geschlossen',
  'festgestellt',
  'widersprochen',
  'zurueckgezogen',
] as const;
export type MotionState = (typeof MOTION_STATES)[number];
export const MOTION_STATE_LABELS: Record<MotionState, string> = {
  entwurf: 'Entwurf',
  abstimmung: 'Abstimmung läuft',
  geschlossen: 'Abstimmung geschlossen',
  festgestellt: 'Ergebnis festgestellt',
  widersprochen: 'Durch Widerspruch beendet',
  zurueckgezogen: 'Zurückgezogen',
};

/** The results a resolution records: the count's outcomes and the two ends without a count. */
export const RESOLUTION_RESULTS = [...TALLY_OUTCOMES, 'widersprochen', 'zurueckgezogen'] as const;
export type ResolutionResult = (typeof RESOLUTION_RESULTS)[number];

export const MOTION_MESSAGES = {
  notDraft: 'Die Beschlussvorlage kann nur als Entwurf geändert oder gelöscht werden.',
  notOpen: 'Die Abstimmung ist nicht geöffnet.',
  deadlinePassed: 'Die Frist dieser Abstimmung ist abgelaufen.',
  deadlineRequired: 'Für ein Umlaufverfahren bitte eine Frist angeben.',
  deadlineInPast: 'Die Frist muss in der Zukunft liegen.',
  umlaufNotAllowed: 'Dieses Gremium fasst keine Beschlüsse im Umlaufverfahren.',
  notElector: 'Sie gehören nicht zu den Stimmberechtigten dieser Abstimmung.',
  conflicted: 'Wegen eines Interessenkonflikts nehmen Sie an dieser Abstimmung nicht teil.',
  alreadyVotedSecret: 'Sie haben in dieser geheimen Abstimmung bereits abgestimmt.',
  changeNotAllowed: 'Ihre Stimme kann in dieser Abstimmung nicht mehr geändert werden.',
  objectionOnlyUmlauf: 'Widersprechen kann man nur einem Umlaufverfahren.',
  handCountOnlySitzung: 'Handzeichen gibt es nur bei einer Abstimmung in der Sitzung.',
  handCountSecret: 'Eine geheime Abstimmung wird nicht per Handzeichen gezählt.',
  tooManyVotes: 'Es sind mehr Stimmen gezählt, als Mitglieder abstimmen dürfen.',
  notClosed: 'Das Ergebnis kann erst nach dem Schließen der Abstimmung festgestellt werden.',
  codeInvalid: 'Der Code ist ungültig. Bitte den aktuellen Code Ihrer Authenticator-App eingeben.',
  onlyChair: 'Das darf nur der Vorsitz des Gremiums.',
  agendaItemMismatch: 'Dieser Tagesordnungspunkt gehört nicht zu dieser Sitzung.',
  voided:
    'Die Beschlussvorlage wurde nach dem Öffnen geändert; die Abstimmung ist ungültig und beginnt von vorn.',
  noElectorate: 'Das Gremium hat heute keine stimmberechtigten Mitglieder.',
  onlyChairOrSecretary: 'Beschlussvorlagen schreiben nur der Vorsitz und die Schriftführung des Gremiums.',
  fileNotFound: 'Ein verknüpftes Dokument wurde nicht gefunden.',
  eventNotFound: 'Diese Sitzung wurde nicht gefunden.',
  conflictAfterSecretVote:
    'In einer geheimen Abstimmung kann ein Interessenkonflikt nur vor der Stimmabgabe erklärt werden.',
  alreadyObjected: 'Sie haben diesem Umlaufverfahren bereits widersprochen.',
  notWithdrawable: 'Zurückziehen kann man nur einen Entwurf oder eine laufende Abstimmung.',
  writtenOnlyMeeting:
    'Vor dem Öffnen kann man nur bei einer Abstimmung in einer Sitzung schriftlich abstimmen.',
  writtenNotSecret: 'Eine geheime Abstimmung kennt keine schriftliche Stimmabgabe vorab.',
  notVotingMember: 'Sie sind heute kein stimmberechtigtes Mitglied dieses Gremiums.',
  voted: 'Ihre Stimme wurde gezählt.',
  writtenVoted: 'Ihre schriftliche Stimme ist eingegangen; sie zählt, sobald die Abstimmung geöffnet wird.',
  objected: 'Ihr Widerspruch wurde festgehalten.',
  objectionStopped: 'Ihr Widerspruch wurde festgehalten; das Umlaufverfahren ist damit beendet.',
  reminded: (count: number) =>
    count === 0
      ? 'Niemand war zu erinnern: alle haben abgestimmt, widersprochen oder wurden heute schon erinnert.'
      : count === 1
        ? 'Ein Mitglied wurde erinnert.'
        : `${count} Mitglieder wurden erinnert.`,
  umlaufNotComplete:
    'Vor Ablauf der Frist kann ein Umlaufverfahren erst geschlossen werden, wenn alle Stimmberechtigten abgestimmt haben.',
  remindOnlyUmlauf: 'Erinnerungen gibt es nur für ein laufendes Umlaufverfahren.',
} as const;

const majorityFields = {
  majority: z.enum(MAJORITY_RULES).optional(),
  majority_basis: z.enum(MAJORITY_BASES).optional(),
  quorum: z.enum(QUORUM_RULES).optional(),
};

export const createMotionBodySchema = z.object({
  committee_id: idSchema,
  event_id: z.optional(idSchema),
  agenda_item_id: z.optional(idSchema),
  title: titleText('Titel', 3, 200),
  /** The exact text to be resolved. */
  text: requiredText('Beschlusstext', 10, 5000),
  justification: z.union([requiredText('Begründung', 1, 20_000), z.literal('')]).optional(),
  mode: z.enum(VOTE_MODES, { error: 'Bitte offen, namentlich oder geheim wählen.' }),
  file_ids: z.array(idSchema).max(50).optional(),
  ...majorityFields,
});
export type CreateMotionBody = z.infer<typeof createMotionBodySchema>;
/** Edit a draft (or a running vote, which voids it): any of the fields, the committee stays. */
export const updateMotionBodySchema = createMotionBodySchema.omit({ committee_id: true }).partial();

export const openMotionBodySchema = z.object({
  procedure: z.enum(PROCEDURES, { error: 'Bitte Sitzung oder Umlaufverfahren wählen.' }),
  /** ISO instant; required for an Umlaufverfahren. */
  deadline: z.iso.datetime({ offset: true, error: 'Bitte eine gültige Frist angeben.' }).optional(),
});
export type OpenMotionBody = z.infer<typeof openMotionBodySchema>;

export const voteBodySchema = z.object({
  choice: z.enum(CHOICES, { error: 'Bitte Ja, Nein oder Enthaltung wählen.' }),
});
export const objectionBodySchema = z.object({
  reason: z.union([requiredText('Begründung', 1, 2000), z.literal('')]).optional(),
});
export const conflictBodySchema = z.object({ user_id: z.optional(idSchema) });
const count = (field: string) =>
  z
    .number({ error: `${field}: bitte eine Zahl angeben.` })
    .int({ error: `${field}: bitte eine ganze Zahl angeben.` })
    .min(0, { error: `${field} darf nicht negativ sein.` })
    .max(10_000, { error: `${field} ist zu groß.` });
export const handCountBodySchema = z.object({
  ja: count('Ja'),
  nein: count('Nein'),
  enthaltung: count('Enthaltung'),
});
export const establishBodySchema = z.object({
  code: z
    .string({ error: 'Bitte den Code Ihrer Authenticator-App eingeben.' })
    .trim()
    .min(6, { error: 'Bitte den Code Ihrer Authenticator-App eingeben.' })
    .max(20),
});

export const countsSchema = z.object({
  ja: z.number().int(),
  nein: z.number().int(),
  enthaltung: z.number().int(),
});

export const motionSchema = z.object({
  id: z.number().int(),
  committee: z.object({ id: z.number().int(), name: z.string() }),
  event_id: z.number().int().nullable(),
  agenda_item_id: z.number().int().nullable(),
  title: z.string(),
  text: z.string(),
  justification: z.string(),
  mode: z.enum(VOTE_MODES),
  majority: z.enum(MAJORITY_RULES),
  majority_basis: z.enum(MAJORITY_BASES),
  quorum: z.enum(QUORUM_RULES),
  state: z.enum(MOTION_STATES),
  procedure: z.enum(PROCEDURES).nullable(),
  deadline: z.string().nullable(),
  /** The member's own: how they voted (never in geheim mode: only that they did), objection, conflict. */
  own: z.object({
    elector: z.boolean(),
    voted: z.boolean(),
    choice: z.enum(CHOICES).nullable(),
    objected: z.boolean(),
    conflicted: z.boolean(),
  }),
  /** After closing only. */
  counts: countsSchema.nullable(),
  /** Namentlich mode, after closing only. */
  names: z.array(z.object({ name: z.string(), choice: z.enum(CHOICES) })).nullable(),
  conflicts: z.array(z.string()),
  /** Objections to an Umlaufverfahren, with their reasons (not secret). */
  objections: z.array(z.object({ name: z.string(), reason: z.string().nullable() })),
  /** The linked documents the member may see. */
  files: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /**
   * For the Vorsitz and admins: who may vote, when the mail went out and the motion was first
   * opened, whether they voted (never how in geheim mode), objected or declared a conflict.
   */
  electorate: z
    .array(
      z.object({
        user_id: z.number().int(),
        name: z.string(),
        mailed_at: z.string().nullable(),
        first_opened_at: z.string().nullable(),
        voted: z.boolean(),
        objected: z.boolean(),
        conflicted: z.boolean(),
      }),
    )
    .nullable(),
  /** Hand counts recorded in the meeting (null before any or for other procedures). */
  hand_count: countsSchema.nullable(),
  /** What the principal may do: the buttons the page shows. */
  may: z.object({ manage: z.boolean(), edit: z.boolean(), establish: z.boolean() }),
  resolution: z
    .object({ id: z.number().int(), number: z.string(), result: z.enum(RESOLUTION_RESULTS) })
    .nullable(),
});
export type Motion = z.infer<typeof motionSchema>;
export const motionResponseSchema = dataOf(motionSchema);
export const motionWithMessageSchema = z.object({ data: motionSchema, message: z.string().nullable() });
export const motionListResponseSchema = z.object({ data: z.array(motionSchema) });

export const motionListQuerySchema = z.object({
  committee_id: z.coerce
    .number({ error: 'Gremium: bitte eine Zahl angeben.' })
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional(),
  event_id: z.coerce
    .number({ error: 'Sitzung: bitte eine Zahl angeben.' })
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional(),
  /** `1`: only running votes in which the member has yet to vote or object ("Ihre Stimme wird erbeten"). */
  pending: z.enum(['1', 'true'], { error: 'pending: bitte 1 angeben.' }).optional(),
});
export type MotionListQuery = z.infer<typeof motionListQuerySchema>;
