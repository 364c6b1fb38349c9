import {
  ACKNOWLEDGEMENT_CSV_HEADER,
  ACKNOWLEDGEMENT_MESSAGES,
  ACKNOWLEDGEMENT_REMINDER_HOURS,
  type AcknowledgementEntry,
  type AcknowledgementList,
} from '@gremienportal/contracts/acknowledgements';
import { formatBerlinDateTime } from '@gremienportal/contracts/audit';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { HOUR } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import { toCsv } from '../../http/csv.ts';
import {
  compareByName,
  listedPerson,
  personColumns,
  type MemberRecord,
  reminderAvailableAt,
  roundUpToMinute,
} from '../../db/member-lists.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { seesFileAsMember } from '../../policies/files.policy.ts';
import { FolderTree, treesByViewer } from '../../policies/folders.policy.ts';
import { viewerOf } from '../../policies/principal.ts';
import { auditOn, recordAudit } from '../audit/audit-log.service.ts';
import { loadFolders, type FileRecord } from '../../db/document-records.ts';
import { hasOpenedCurrent } from '../explorer/explorer.service.ts';
import {
  allMembers,
  confirmationsOf,
  confirmationsTo,
  reminderSentAt,
  saveConfirmation,
  takeReminderSlot,
} from './acknowledgements.repository.ts';
import { acknowledgementReminderMail } from './acknowledgements.mails.ts';
import { currentConfirmation } from './files.member.ts';
import { visibleFile } from './visible-file.ts';

type Executor = Kysely<Database> | Transaction<Database>;

const REMINDER_INTERVAL_MS = ACKNOWLEDGEMENT_REMINDER_HOURS * HOUR;
/** "27.11.2026 14:05": Berlin time, rounded up to the minute (never earlier than allowed). */
const berlinMinute = (instant: Date) =>
  formatBerlinDateTime(roundUpToMinute(instant).toISOString()).slice(0, 16);

/**
 * Kenntnisnahme (decision 131): members confirm documents they opened; admins see who
 * has and who has not, export it and remind the others once a day.
 */
export function acknowledgementsService(ctx: AppContext) {
  const db = ctx.db.kysely;

  /** The document if the principal may see it (`visibleFile`), with the folders it was checked against. */
  async function visibleFileWithFolders(executor: Executor, principal: Principal, id: number) {
    const folders = await loadFolders(executor);
    const file = await visibleFile(executor, new FolderTree(folders, viewerOf(principal)), { id });
    return { file, folders };
  }

  /** Everyone the request concerns now (roles as they are today), with their confirmation. */
  async function concerned(
    executor: Executor,
    file: FileRecord,
    folders: Awaited<ReturnType<typeof loadFolders>>,
  ) {
    const treeOf = treesByViewer(folders);
    const [members, confirmations] = await Promise.all([
      allMembers(executor),
      confirmationsTo(executor, file.id),
    ]);
    const people = members.filter(
      (member) =>
        seesFileAsMember(treeOf, file, member.roles) &&
        (member.active || currentConfirmation(file, confirmations.get(member.id)) !== null),
    );
    return people.map((member) => ({
      member,
      confirmedAt: currentConfirmation(file, confirmations.get(member.id)),
    }));
  }

  function toEntry(member: MemberRecord, confirmedAt: string | null): AcknowledgementEntry {
    return { user: listedPerson(member), confirmed_at: confirmedAt };
  }

  async function list(principal: Principal, id: number): Promise<AcknowledgementList> {
    const { file, folders } = await visibleFileWithFolders(db, principal, id);
    const people = await concerned(db, file, folders);
    const entries = people
      .map(({ member, confirmedAt }) => toEntry(member, confirmedAt))
      .sort(
        (a, b) =>
          (a.confirmed_at === null ? 1 : 0) - (b.confirmed_at === null ? 1 : 0) ||
          (a.confirmed_at ?? '').localeCompare(b.confirmed_at ?? '') ||
          compareByName(a.user, b.user),
      );
    const confirmed = entries.filter((entry) => entry.confirmed_at !== null).length;
    const sentAt = await reminderSentAt(db, id);
    const available = reminderAvailableAt(sentAt, ctx.clock.now(), REMINDER_INTERVAL_MS);
    return {
      file: {
        id: file.id,
        title: file.title,
        format: file.format,
        acknowledgement_required: file.acknowledgement_required === 1,
        acknowledgement_due: file.acknowledgement_due,
        requested_at: file.acknowledgement_since,
      },
      entries,
      counts: { confirmed, pending: entries.length - confirmed, total: entries.length },
      percent: entries.length === 0 ? 0 : Math.floor((confirmed * 100) / entries.length),
      reminder_sent_at: sentAt,
      reminder_available_at: available?.toISOString() ?? null,
    };
  }

  return {
    /**
     * The member confirms the current request; only after receiving the current content (409
     * otherwise). A confirmation stays; confirming twice answers the first one.
     */
    async confirm(actor: Actor, id: number): Promise<{ message: string; data: { confirmed_at: string } }> {
      return db.transaction().execute(async (trx) => {
        const { file } = await visibleFileWithFolders(trx, actor.principal, id);
        if (file.acknowledgement_required !== 1) {
          throw new AppError('conflict', ACKNOWLEDGEMENT_MESSAGES.notRequired);
        }
        const mine = await confirmationsOf(trx, actor.principal.id, [id]);
        const existing = currentConfirmation(file, mine.get(id));
        if (existing)
          return { message: ACKNOWLEDGEMENT_MESSAGES.confirmed, data: { confirmed_at: existing } };
        if (!(await hasOpenedCurrent(trx, actor.principal.id, file))) {
          throw new AppError('conflict', ACKNOWLEDGEMENT_MESSAGES.openFirst);
        }
        const now = ctx.clock.now().toISOString();
        await saveConfirmation(trx, id, actor.principal.id, now);
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'file', id, `${file.title}.${file.format}`),
          action: 'file.acknowledged',
          details: { version: file.version },
        });
        return { message: ACKNOWLEDGEMENT_MESSAGES.confirmed, data: { confirmed_at: now } };
      });
    },

    list,

    /** The list as CSV for spreadsheets (formula-safe, UTF-8 with BOM), with its file name. */
    async exportCsv(principal: Principal, id: number): Promise<{ title: string; body: string }> {
      const result = await list(principal, id);
      const rows = result.entries.map((entry) => [
        ...personColumns(entry.user),
        entry.confirmed_at ? ACKNOWLEDGEMENT_MESSAGES.confirmedLabel : ACKNOWLEDGEMENT_MESSAGES.pendingLabel,
        entry.confirmed_at ? formatBerlinDateTime(entry.confirmed_at) : '',
      ]);
      return {
        title: `Kenntnisnahme ${result.file.title}`,
        body: toCsv(ACKNOWLEDGEMENT_CSV_HEADER, rows),
      };
    },

    /**
     * "Erinnerung senden" to everyone pending, at most once per day and document: the slot is
     * taken atomically (two admins, also on two instances, send one reminder); nobody pending
     * leaves it unspent.
     */
    async remind(actor: Actor, id: number): Promise<{ message: string; sent: number }> {
      return db.transaction().execute(async (trx) => {
        const { file, folders } = await visibleFileWithFolders(trx, actor.principal, id);
        if (file.acknowledgement_required !== 1) {
          throw new AppError('conflict', ACKNOWLEDGEMENT_MESSAGES.notRequired);
        }
        const pending = (await concerned(trx, file, folders)).filter(
          (person) => person.confirmedAt === null && person.member.active,
        );
        if (pending.length === 0) return { message: ACKNOWLEDGEMENT_MESSAGES.reminderNobody, sent: 0 };
        const now = ctx.clock.now();
        const taken = await takeReminderSlot(
          trx,
          id,
          now.toISOString(),
          new Date(now.getTime() - REMINDER_INTERVAL_MS).toISOString(),
        );
        if (!taken) {
          const sentAt = (await reminderSentAt(trx, id)) ?? now.toISOString();
          const next = new Date(new Date(sentAt).getTime() + REMINDER_INTERVAL_MS);
          throw new AppError('conflict', ACKNOWLEDGEMENT_MESSAGES.reminderTooSoon(berlinMinute(next)));
        }
        await enqueueMail(
          trx,
          ctx.clock,
          pending.map(({ member }) =>
            acknowledgementReminderMail(
              member,
              { id, title: file.title, format: file.format, due: file.acknowledgement_due },
              ctx.config.PUBLIC_URL,
            ),
          ),
        );
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'file', id, `${file.title}.${file.format}`),
          action: 'file.acknowledgement_reminded',
          details: { recipients: pending.length },
        });
        return { message: ACKNOWLEDGEMENT_MESSAGES.reminderSent(pending.length), sent: pending.length };
      });
    },
  };
}
