import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  CommitteeKind,
  EndReason,
  MajorityBasis,
  MajorityRule,
  MemberFunction,
  QuorumRule,
} from '@gremienportal/contracts/committees';
import type {
  MotionState,
  Procedure,
  ResolutionResult,
  VoteMode,
} from '@gremienportal/contracts/resolutions';
import type { Choice } from '@gremienportal/contracts/tally';

/**
 * Timestamps are ISO 8601 UTC strings (`Date#toISOString`) in both dialects: they sort as text,
 * compare as text and need no driver-specific parsing.
 */
type Timestamp = string;

export interface RolesTable {
  id: Generated<number>;
  name: string;
}

export interface UsersTable {
  id: Generated<number>;
  title: string;
  firstname: string;
  lastname: string;
  /** Always lower case; unique. */
  email: string;
  /** argon2id; null until the invitation has been accepted. */
  password_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 1 while a TOTP seed or a passkey exists (decision 126); an integer, as SQLite has no booleans. */
  two_factor_enabled: Generated<number>;
  /** Encrypted TOTP seed (secret-box.ts), active / waiting for the confirming code. */
  totp_secret: string | null;
  totp_pending: string | null;
  /** The last accepted 30-second step: no code is accepted twice. */
  totp_last_step: number | null;
  /** "Alle als gelesen markieren" (decision 131): nothing whose content is older is new. */
  news_read_at: Generated<Timestamp | null>;
  /** Raised with every change of the read state: the per-member cache's key. */
  news_version: Generated<number>;
  /** How the member is told about documents and events (contracts/notifications.ts). */
  notify_files: Generated<NotificationFrequency>;
  /** Fellow members of the person's committees may see the e-mail address (decision 189). */
  email_visible_to_committees: Generated<number>;
  notify_events: Generated<NotificationFrequency>;
}

export type NotificationFrequency = 'sofort' | 'taeglich' | 'woechentlich' | 'nie';

/** A role a person holds (effective roles): granted by an admin, by an active membership, or both. */
export interface UserRolesTable {
  user_id: number;
  role_id: number;
  direct: Generated<number>;
  via_committee: Generated<number>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface PasswordTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'reset' | 'invite';
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** A forgot-password request waiting for the background worker; deleted once handled. */
export interface PasswordRequestsTable {
  id: Generated<number>;
  /** As entered, lower case; whether it has an account is decided only by the worker. */
  email: string;
  /** The requesting client, for the audit entry. */
  ip: string | null;
  created_at: Timestamp;
  attempts: number;
  /** A worker holds a lease until this time, so several instances never handle one request twice. */
  locked_until: Timestamp | null;
}

export type CalendarMethod = 'PUBLISH' | 'REQUEST' | 'CANCEL';

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  /** The HTML alternative (migration 0010); null for a mail queued before it, sent as text only. */
  html_body: string | null;
  /** A notification's `List-Unsubscribe` address (the notification settings page). */
  list_unsubscribe: string | null;
  /** An iCalendar part (text/calendar) the mail carries, with its METHOD. */
  calendar: string | null;
  calendar_method: CalendarMethod | null;
  created_at: Timestamp;
  attempts: number;
  next_attempt_at: Timestamp;
  /** A sender holds a lease until this time, so several instances never send one mail twice. */
  locked_until: Timestamp | null;
  sent_at: Timestamp | null;
  last_error: string | null;
}

export interface FoldersTable {
  id: Generated<number>;
  parent_id: number | null;
  title: string;
  /** Full path such as `/Aufsichtsrat/2026`; the root is `/`. */
  breadcrumb: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FolderRolesTable {
  folder_id: number;
  role_id: number;
}

export interface FilesTable {
  id: Generated<number>;
  folder_id: number;
  title: string;
  /** Extension without the dot, lower case. */
  format: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  /** Server-made object name in the storage. */
  storage_key: string;
  /** Random, unguessable key used in download URLs (still needs token and role). */
  download_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 1 for the first upload, raised by every replacement and version restore. */
  version: Generated<number>;
  /** When and by whom the current content was stored (null: before versions existed). */
  content_at: Timestamp | null;
  content_by_label: string | null;
  /** The version the current content was restored from. */
  restored_from: number | null;
  /** Kenntnisnahme (decision 131): 1 when every member who can see it is asked to confirm. */
  acknowledgement_required: Generated<number>;
  /** Last day to confirm (YYYY-MM-DD, Europe/Berlin). */
  acknowledgement_due: Generated<string | null>;
  /** When the current request started; confirmations before it do not count. */
  acknowledgement_since: Generated<Timestamp | null>;
}

/** When a member last opened a document or marked it read (decision 131). */
export interface FileReadsTable {
  user_id: number;
  file_id: number;
  /** Opened, downloaded or marked read. */
  read_at: Timestamp;
  /** Last delivery of the content to the member (a Kenntnisnahme needs one of the current content). */
  opened_at: Timestamp | null;
}

/** A member's confirmation of a document (Kenntnisnahme); never withdrawn. */
export interface AcknowledgementsTable {
  file_id: number;
  user_id: number;
  confirmed_at: Timestamp;
}

/** The last "Erinnerung senden" of a document's Kenntnisnahme. */
export interface AcknowledgementRemindersTable {
  file_id: number;
  sent_at: Timestamp;
}

/** A notification waiting for the member's daily or weekly digest. */
export interface NotificationQueueTable {
  id: Generated<number>;
  user_id: number;
  kind: 'file' | 'event';
  object_id: number;
  action: 'created' | 'updated';
  queued_at: Timestamp;
}

/** A digest built for a member; (user, cadence, period) is unique: one mail per period. */
export interface NotificationDigestsTable {
  id: Generated<number>;
  user_id: number;
  cadence: 'daily' | 'weekly';
  /** The Berlin date of the morning it belongs to (for weekly ones a Monday). */
  period: string;
  items: number;
  created_at: Timestamp;
}

/** Several documents uploaded in one go (decision 182); open while `completed_at` is null. */
export interface UploadBatchesTable {
  /** The client's UUID, lower case. */
  id: string;
  created_by: number | null;
  created_at: Timestamp;
  last_file_at: Timestamp;
  files: number;
  completed_at: Timestamp | null;
  mails: number;
}

/** A mail a batch owes: the member told at once ("sofort") about one of its documents. */
export interface UploadBatchNoticesTable {
  batch_id: string;
  user_id: number;
  file_id: number;
}

/** An earlier content of a document (decision 125). */
export interface FileVersionsTable {
  id: Generated<number>;
  file_id: number;
  version: number;
  format: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  storage_key: string;
  content_at: Timestamp;
  content_by_label: string | null;
  restored_from: number | null;
  replaced_at: Timestamp;
  replaced_by_label: string | null;
}

/** A deleted document, folder or event, kept as a snapshot of its rows (decision 125). */
export interface TrashItemsTable {
  id: Generated<number>;
  kind: 'file' | 'folder' | 'event';
  object_id: number;
  title: string;
  former_path: string | null;
  former_parent_id: number | null;
  deleted_at: Timestamp;
  deleted_by: number | null;
  deleted_by_label: string | null;
  size_bytes: number;
  file_count: number;
  folder_count: number;
  /** JSON text of the rows (see trash.snapshot.ts). */
  snapshot: string;
}

/** A stored object a trash item keeps until it is purged. */
export interface TrashObjectsTable {
  storage_key: string;
  trash_id: number;
  size_bytes: number;
  sha256: string;
}

export interface FileRolesTable {
  file_id: number;
  role_id: number;
}

export interface EventsTable {
  id: Generated<number>;
  /** Stable iCalendar UID. */
  uid: string;
  /** iCalendar SEQUENCE, raised on each update. */
  sequence: number;
  title: string;
  start_at: Timestamp;
  end_at: Timestamp;
  location: string;
  description: string;
  file_storage_key: string | null;
  file_download_key: string | null;
  file_format: string | null;
  file_mime_type: string | null;
  file_size_bytes: number | null;
  file_sha256: string | null;
  /** The Protokoll der Sitzung (decision 130), stored like the information file. */
  minutes_storage_key: string | null;
  minutes_download_key: string | null;
  minutes_format: string | null;
  minutes_mime_type: string | null;
  minutes_size_bytes: number | null;
  minutes_sha256: string | null;
  minutes_published_at: Timestamp | null;
  /** The last "Erinnerung senden" to members without an answer. */
  reminder_sent_at: Timestamp | null;
  /** The last "Tagesordnung veröffentlichen" (decision 181) and, as JSON, what it told. */
  agenda_published_at: Timestamp | null;
  agenda_published_state: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One item of an event's Tagesordnung; `parent_id` set for a sub-item (2.1). */
export interface AgendaItemsTable {
  id: Generated<number>;
  event_id: number;
  parent_id: number | null;
  /** Order among its siblings, from 0. */
  position: number;
  title: string;
  description: string;
  presenter: string;
}

/** A document linked to an agenda item; no foreign key (decision 130): reads join `files`. */
export interface AgendaItemFilesTable {
  item_id: number;
  file_id: number;
  position: number;
}

export type AttendanceStatus = 'zugesagt' | 'abgesagt' | 'vielleicht';

export interface EventAttendanceTable {
  event_id: number;
  user_id: number;
  status: AttendanceStatus;
  comment: string;
  answered_at: Timestamp;
}

/** A personal calendar feed (`/api/v1/calendar/{token}.ics`); the token only as SHA-256. */
export interface CalendarFeedsTable {
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** An API-Schlüssel (decision 136): acts with its issuer's rights, narrowed to its scopes. */
export interface ApiKeysTable {
  id: Generated<number>;
  /** The issuing Super-Admin. */
  user_id: number;
  name: string;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  token_hash: string;
  /** Comma-separated scopes (contracts/api-keys.ts). */
  scopes: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface EventRolesTable {
  event_id: number;
  role_id: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_id: number | null;
  /** Name and e-mail at the time, kept when the account is deleted later. */
  actor_label: string | null;
  action: string;
  object_type: string | null;
  object_id: number | null;
  object_label: string | null;
  /** JSON text: changed fields and the like; never passwords or tokens. */
  details: string | null;
  ip: string | null;
}

/** The last recorded delivery of one content version to one session (decision 116). */
export interface DeliveryMarksTable {
  session_id: number;
  object_kind: 'file' | 'event';
  object_id: number;
  /** The storage key: replaced content is a new version. */
  content_version: string;
  purpose: 'view' | 'download';
  recorded_at: Timestamp;
}

/** Counters the database raises itself (triggers), such as `tree` for the folder tree. */
export interface ChangeCountersTable {
  name: string;
  /** bigint: PostgreSQL returns it as a string. */
  value: number | string;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the normalised code. */
  code_hash: string;
  used_at: Timestamp | null;
}

export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url credential id. */
  credential_id: string;
  /** base64url COSE public key. */
  public_key: string;
  counter: number;
  /** JSON array of transports, as the browser reported them. */
  transports: string | null;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** The interim token between the password and the second factor, or a passkey registration. */
export interface LoginChallengesTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'login' | 'register' | 'confirm';
  token_hash: string;
  webauthn_challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface TrustedDevicesTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  label: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface Database {
  change_counters: ChangeCountersTable;
  roles: RolesTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  password_tokens: PasswordTokensTable;
  password_requests: PasswordRequestsTable;
  outbox: OutboxTable;
  folders: FoldersTable;
  folder_roles: FolderRolesTable;
  files: FilesTable;
  file_roles: FileRolesTable;
  events: EventsTable;
  event_roles: EventRolesTable;
  audit_log: AuditLogTable;
  delivery_marks: DeliveryMarksTable;
  file_versions: FileVersionsTable;
  trash_items: TrashItemsTable;
  trash_objects: TrashObjectsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  login_challenges: LoginChallengesTable;
  trusted_devices: TrustedDevicesTable;
  search_texts: SearchTextsTable;
  agenda_items: AgendaItemsTable;
  agenda_item_files: AgendaItemFilesTable;
  event_attendance: EventAttendanceTable;
  calendar_feeds: CalendarFeedsTable;
  file_reads: FileReadsTable;
  acknowledgements: AcknowledgementsTable;
  acknowledgement_reminders: AcknowledgementRemindersTable;
  notification_queue: NotificationQueueTable;
  notification_digests: NotificationDigestsTable;
  api_keys: ApiKeysTable;
  upload_batches: UploadBatchesTable;
  upload_batch_notices: UploadBatchNoticesTable;
  committees: CommitteesTable;
  committee_terms: CommitteeTermsTable;
  committee_memberships: CommitteeMembershipsTable;
  motions: MotionsTable;
  motion_files: MotionFilesTable;
  motion_electorate: MotionElectorateTable;
  motion_votes: MotionVotesTable;
  motion_ballots: MotionBallotsTable;
  resolution_counters: ResolutionCountersTable;
  resolutions: ResolutionsTable;
  resolution_follow_ups: ResolutionFollowUpsTable;
  minutes: MinutesTable;
  minutes_versions: MinutesVersionsTable;
  minutes_remarks: MinutesRemarksTable;
  minutes_readers: MinutesReadersTable;
  minutes_signatures: MinutesSignaturesTable;
}

/** A Beschlussvorlage (decision 190). */
export interface MotionsTable {
  id: Generated<number>;
  committee_id: number;
  event_id: number | null;
  agenda_item_id: number | null;
  title: string;
  text: string;
  justification: string;
  mode: VoteMode;
  majority: MajorityRule;
  majority_basis: MajorityBasis;
  quorum: QuorumRule;
  state: Generated<MotionState>;
  procedure: Procedure | null;
  deadline: Timestamp | null;
  changes_allowed: Generated<number>;
  opened_at: Timestamp | null;
  closed_at: Timestamp | null;
  hand_ja: number | null;
  hand_nein: number | null;
  hand_enthaltung: number | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MotionFilesTable {
  motion_id: number;
  file_id: number;
}

/** Who may vote, fixed when the vote opens; `voted` is the mark without a time. */
export interface MotionElectorateTable {
  motion_id: number;
  user_id: number;
  holder_name: string;
  function: MemberFunction;
  voted: Generated<number>;
  conflicted: Generated<number>;
  objected_at: Timestamp | null;
  objection_reason: string | null;
  mailed_at: Timestamp | null;
  first_opened_at: Timestamp | null;
  reminded_at: Timestamp | null;
}

export interface MotionVotesTable {
  motion_id: number;
  user_id: number;
  choice: Choice;
  updated_at: Timestamp;
}

/** A secret ballot: a random id and the choice, nothing that names the voter or the time. */
export interface MotionBallotsTable {
  id: string;
  motion_id: number;
  choice: Choice;
}

export interface ResolutionCountersTable {
  committee_id: number;
  term_id: number;
  last_number: number;
}

/** An entry of the Beschlussbuch: never updated; `record` is canonical JSON, `hash` chains it. */
export interface ResolutionsTable {
  id: Generated<number>;
  committee_id: number;
  term_id: number;
  motion_id: number | null;
  number: string;
  sequence: number;
  result: ResolutionResult;
  established_at: Timestamp;
  record: string;
  previous_hash: string | null;
  hash: string;
  corrects_id: number | null;
}

export interface ResolutionFollowUpsTable {
  id: Generated<number>;
  resolution_id: number;
  responsible_id: number | null;
  due_on: string | null;
  status: Generated<'offen' | 'erledigt'>;
  note: Generated<string>;
  reminded_on: string | null;
  updated_at: Timestamp;
}

/** A Niederschrift or a Nachtrag to one (decision 193). */
export interface MinutesTable {
  id: Generated<number>;
  event_id: number;
  committee_id: number;
  kind: Generated<'niederschrift' | 'nachtrag'>;
  amends_id: number | null;
  state: Generated<'entwurf' | 'abstimmung' | 'unterschrift' | 'unterzeichnet'>;
  /** Raised by every save; a save naming an older one is refused (409). */
  version: Generated<number>;
  review_until: Timestamp | null;
  review_audience: 'anwesende' | 'gremium' | null;
  /** The version sent for review: the comparison's base. */
  review_version: number | null;
  frozen_storage_key: string | null;
  frozen_sha256: string | null;
  frozen_at: Timestamp | null;
  sealed_storage_key: string | null;
  sealed_sha256: string | null;
  sealed_size_bytes: number | null;
  sealed_at: Timestamp | null;
  filed_file_id: number | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Every save of a Niederschrift, whole: JSON of the contract's `MinutesContent`. */
export interface MinutesVersionsTable {
  minutes_id: number;
  version: number;
  content: string;
  author_id: number | null;
  saved_at: Timestamp;
}

export interface MinutesRemarksTable {
  id: Generated<number>;
  minutes_id: number;
  version: number;
  section_key: string;
  author_id: number | null;
  author_name: string;
  text: string;
  created_at: Timestamp;
}

export interface MinutesReadersTable {
  minutes_id: number;
  user_id: number;
  first_opened_at: Timestamp | null;
  reminded_at: Timestamp | null;
}

export interface MinutesSignaturesTable {
  id: Generated<number>;
  minutes_id: number;
  user_id: number | null;
  signer_name: string;
  function: string;
  frozen_sha256: string;
  method: string | null;
  signed_at: Timestamp | null;
  refused_at: Timestamp | null;
  refusal_reason: string | null;
}

/** Gremien (decision 189); `rules` is JSON of the contract's `CommitteeRules`. */
export interface CommitteesTable {
  id: Generated<number>;
  name: string;
  kind: CommitteeKind;
  role_id: number;
  folder_id: number | null;
  rules: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CommitteeTermsTable {
  id: Generated<number>;
  committee_id: number;
  starts_on: string;
  ends_on: string;
  folder_id: number | null;
  archived: Generated<number>;
  reopened: Generated<number>;
  created_at: Timestamp;
}

/** What the portal has applied of a membership: its start and its end each happen once. */
export type MembershipState = 'pending' | 'active' | 'ended';

export interface CommitteeMembershipsTable {
  id: Generated<number>;
  committee_id: number;
  term_id: number;
  user_id: number | null;
  holder_name: string;
  function: MemberFunction;
  rank: number | null;
  valid_from: string;
  valid_until: string;
  district: string | null;
  reason: EndReason | null;
  state: Generated<MembershipState>;
  succeeded_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * The text inside a document or event information file (decision 128), and the extraction queue:
 * `pending` rows are leased by the indexer (`working` until `locked_until`).
 */
export interface SearchTextsTable {
  kind: 'file' | 'event';
  item_id: number;
  /** The stored object the text was (or is to be) read from. */
  content_key: string;
  format: string;
  state: 'pending' | 'working' | 'done' | 'empty' | 'failed';
  reason: string | null;
  /** The plain text as read (for snippets). */
  text: string | null;
  /** PostgreSQL: the folded text the trigram index covers (SQLite keeps it in search_fts). */
  folded: string | null;
  attempts: number;
  locked_until: string | null;
  updated_at: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type FolderRow = Selectable<FoldersTable>;
export type FileRow = Selectable<FilesTable>;
export type EventRow = Selectable<EventsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type AuditRow = Selectable<AuditLogTable>;
