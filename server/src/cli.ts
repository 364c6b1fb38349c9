import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { ROLE_NAMES, TITLE_OPTIONS } from '@gremienportal/contracts/common';
import { newPasswordField } from '@gremienportal/contracts/auth';
import { ConfigError, loadConfig, readDotEnv } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { seedBaseData } from './db/seed.ts';
import { systemClock } from './clock.ts';
import { hashPassword } from './credentials/passwords.ts';
import { backupCommand } from './ops/backup.ts';
import { restoreCommand } from './ops/restore.ts';
import { reindex } from './ops/reindex.ts';
import { restrictUmask } from './storage/private-files.ts';
import { endAllSessions } from './features/auth/auth.service.ts';
import { clearSecondFactor } from './features/two-factor/second-factor.service.ts';
import { recordAudit } from './features/audit/audit-log.service.ts';
import { sendDueDigests } from './features/notifications/notifications.service.ts';
import { setDirectRoles } from './features/users/users.service.ts';
import { verifyChains } from './features/resolutions/resolutions.service.ts';

const USAGE = `Verwendung:
  npm run cli -- create-user --email <adresse> --firstname <vorname> --lastname <nachname>
                 [--title Herr|Frau] --role <rolle> [--role <rolle> …]
      Legt ein Konto an oder setzt bei einem bestehenden Konto Passwort und Rollen neu.
      Das Passwort kommt aus der Umgebungsvariable PORTAL_PASSWORD (nie als Argument: es stünde
      sonst in der Prozessliste). Rollen: ${ROLE_NAMES.join(', ')}.
  npm run cli -- reset-2fa --email <adresse>
      Setzt die Zwei-Faktor-Anmeldung eines Kontos zurück (verlorenes Gerät, z. B. des einzigen
      Super-Admins): Authenticator-App, Passkeys, Wiederherstellungscodes und vertraute Geräte
      werden entfernt, alle Sitzungen beendet; der Vorgang steht im Protokoll.
  npm run cli -- reindex
      Liest den Text aller Dokumente und Event-Informationsdateien für die Suche neu ein, mit
      Fortschritt. Ein abgebrochener Lauf wird beim nächsten Aufruf fortgesetzt.
  npm run cli -- digests [--at <zeitpunkt>]
      Versendet die Zusammenfassungen (täglich 7 Uhr, montags die wöchentlichen), die zum
      Zeitpunkt fällig sind (ISO 8601, z. B. 2026-11-28T07:05:00+01:00; ohne --at: jetzt), über die
      Warteschlange, die der laufende Server zustellt. Jede geht je Mitglied und Zeitraum nur einmal
      hinaus, auch wenn der Server sie schon versandt hat.
  npm run cli -- verify-resolutions
      Prüft die Prüfsummen-Kette des Beschlussbuchs jedes Gremiums und nennt den ersten Eintrag,
      der nicht passt (verändert, entfernt oder falsch verkettet); dann endet es mit Status 1.
  npm run backup -- <verzeichnis>
      Sichert das laufende Portal (SQLite-Datenbank und Dateien, mit Prüfsummen) in ein leeres
      Verzeichnis außerhalb von DATA_DIR. Mit PostgreSQL: pg_dump (siehe README).
  npm run restore -- <verzeichnis>
      Stellt eine Sicherung in ein leeres DATA_DIR wieder her und prüft dabei alle Prüfsummen.`;

/** The portal's database as the server would open it (.env, DATA_DIR or DATABASE_URL), migrated. */
async function openPortalDatabase() {
  readDotEnv();
  const config = loadConfig();
  const db = openDatabase({
    databaseUrl: config.DATABASE_URL,
    sqliteFile: join(config.DATA_DIR, 'portal.sqlite'),
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { config, db };
}

async function createUser(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      firstname: { type: 'string' },
      lastname: { type: 'string' },
      title: { type: 'string', default: 'Herr' },
      role: { type: 'string', multiple: true, default: [] },
    },
  });
  const password = process.env.PORTAL_PASSWORD ?? '';
  const passwordCheck = newPasswordField().safeParse(password);
  if (!values.email || !values.firstname || !values.lastname || values.role.length === 0)
    throw new UsageError();
  if (!passwordCheck.success) throw new Error(`PORTAL_PASSWORD: ${passwordCheck.error.issues[0]?.message}`);
  if (!(TITLE_OPTIONS as readonly string[]).includes(values.title))
    throw new Error('--title: Herr oder Frau');
  const unknown = values.role.filter((role) => !(ROLE_NAMES as readonly string[]).includes(role));
  if (unknown.length > 0) throw new Error(`Unbekannte Rolle: ${unknown.join(', ')}`);

  const { config, db } = await openPortalDatabase();
  try {
    await seedBaseData(db, systemClock, {
      email: config.INITIAL_ADMIN_EMAIL,
      password: config.INITIAL_ADMIN_PASSWORD,
    });
    const now = systemClock.now().toISOString();
    const email = values.email.trim().toLowerCase();
    const passwordHash = await hashPassword(password);
    await db.kysely.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      const userId = existing
        ? existing.id
        : (
            await trx
              .insertInto('users')
              .values({
                title: values.title,
                firstname: values.firstname!,
                lastname: values.lastname!,
                email,
                password_hash: passwordHash,
                created_at: now,
                updated_at: now,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
      if (existing) {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: now })
          .where('id', '=', userId)
          .execute();
        await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      }
      const roles = await trx.selectFrom('roles').select('id').where('name', 'in', values.role).execute();
      // The given roles become the direct ones; what a committee membership gives stays (decision 189).
      await setDirectRoles(
        trx,
        userId,
        roles.map((role) => role.id),
      );
    });
    process.stdout.write(`Konto ${email} bereit (Rollen: ${values.role.join(', ')}).\n`);
  } finally {
    await db.close();
  }
}

/** The operator's way out when nobody who could reset it in the portal can sign in (decision 126). */
async function resetTwoFactor(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' } } });
  if (!values.email) throw new UsageError();
  const { db } = await openPortalDatabase();
  try {
    const email = values.email.trim().toLowerCase();
    const user = await db.kysely
      .selectFrom('users')
      .select(['id', 'firstname', 'lastname', 'email', 'two_factor_enabled'])
      .where('email', '=', email)
      .executeTakeFirst();
    if (!user) throw new Error(`Kein Konto mit der E-Mail-Adresse ${email}.`);
    if (!user.two_factor_enabled) {
      process.stdout.write(`Für ${email} ist keine Zwei-Faktor-Anmeldung eingerichtet; nichts zu tun.\n`);
      return;
    }
    await db.kysely.transaction().execute(async (trx) => {
      await clearSecondFactor(trx, user.id);
      await endAllSessions(trx, user.id);
      await recordAudit(trx, systemClock, {
        actor: null,
        action: 'user.two_factor_reset',
        objectType: 'user',
        objectId: user.id,
        objectLabel: `${user.firstname} ${user.lastname} <${user.email}>`,
        details: { by: 'Kommandozeile' },
      });
    });
    process.stdout.write(`Zwei-Faktor-Anmeldung von ${email} zurückgesetzt; alle Sitzungen beendet.\n`);
  } finally {
    await db.close();
  }
}

/** Reads every document's text again for the search (decision 128). */
async function reindexCommand(): Promise<void> {
  const { config, db } = await openPortalDatabase();
  try {
    await reindex(config, db, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await db.close();
  }
}

/**
 * Sends the digests due at `--at` (decision 131). The mails are stamped with the real time, so the
 * running server's sender delivers them at once; `--at` only decides which periods are due.
 */
async function digestsCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { at: { type: 'string' } } });
  const at = values.at === undefined ? systemClock.now() : new Date(values.at);
  if (Number.isNaN(at.getTime())) throw new Error(`--at: kein gültiger Zeitpunkt: ${values.at}`);
  const { config, db } = await openPortalDatabase();
  try {
    const sent = await sendDueDigests(
      {
        config,
        db,
        clock: systemClock,
        logger: {
          error: (details, message) =>
            process.stderr.write(`${message}: ${String((details as { err?: unknown }).err)}\n`),
        },
      },
      at,
    );
    process.stdout.write(`${sent} ${sent === 1 ? 'Zusammenfassung' : 'Zusammenfassungen'} versandt\n`);
  } finally {
    await db.close();
  }
}

/** Recomputes every committee's chain of resolutions (decision 190); exit status 1 when one is broken. */
async function verifyResolutionsCommand(): Promise<void> {
  const { db } = await openPortalDatabase();
  try {
    const result = await verifyChains(db);
    if (result.ok) {
      process.stdout.write(
        `Beschlussbuch in Ordnung: ${result.count} ${result.count === 1 ? 'Eintrag' : 'Einträge'} geprüft.\n`,
      );
    } else {
      process.stdout.write(`Beschlussbuch fehlerhaft bei ${result.number}: ${result.reason}\n`);
      process.exitCode = 1;
    }
  } finally {
    await db.close();
  }
}

class UsageError extends Error {}

const commands: Record<string, (args: string[]) => Promise<void>> = {
  'create-user': createUser,
  'reset-2fa': resetTwoFactor,
  reindex: reindexCommand,
  digests: digestsCommand,
  'verify-resolutions': verifyResolutionsCommand,
  backup: backupCommand,
  restore: restoreCommand,
};

// The CLI writes the database, backups and restored data: owner-only, as the server does.
restrictUmask();
const [command, ...rest] = process.argv.slice(2);
const run = command ? commands[command] : undefined;
if (!run) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
run(rest).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
  else if (error instanceof ConfigError || error instanceof Error) process.stderr.write(`${error.message}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
