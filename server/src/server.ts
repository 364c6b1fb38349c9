import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { ConfigError, loadConfig, readDotEnv } from './config.ts';
import { buildApp } from './app.ts';
import { loggerOptions } from './plugins/logging.ts';
import { restrictUmask } from './storage/private-files.ts';

const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main(): Promise<void> {
  restrictUmask();
  readDotEnv();
  const config = loadConfig();
  // The log's own destination, so that shutdown can end it: pino's default one flushes
  // synchronously at exit and blocks for ever on a pipe nobody drains (docs/deployment.md).
  // Lines are gathered up to 4 KiB and written at least every second: one write per line was a
  // noticeable part of a small request (decision 155); shutdown writes out what is left.
  const logDestination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 });
  const app = await buildApp({ config, webRoot, logger: pino(loggerOptions(config), logDestination) });

  if (app.initialAdmin) {
    const { email, generatedPassword } = app.initialAdmin;
    // Printed once, to the console only: the operator's first sign-in.
    const lines = [
      '',
      'Erster Start: Super-Admin angelegt.',
      `  E-Mail:   ${email}`,
      generatedPassword
        ? `  Passwort: ${generatedPassword}  (nur jetzt angezeigt – bitte nach der Anmeldung ändern)`
        : '  Passwort: aus INITIAL_ADMIN_PASSWORD',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  if (app.demoAccounts.length > 0) {
    const lines = ['Demo-Konten (Passwörter nur jetzt angezeigt):'];
    for (const account of app.demoAccounts) {
      lines.push(`  ${account.roles.join(', ').padEnd(13)} ${account.email.padEnd(32)} ${account.password}`);
    }
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }

  let closing = false;
  /** Exits once the log is written out, or at once if `abandonLog` (it may never drain). */
  const exit = (code: number, abandonLog: boolean) => {
    if (abandonLog) {
      logDestination.destroy();
      process.exit(code);
    }
    logDestination.once('close', () => process.exit(code));
    logDestination.end();
  };
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // A hanging request, mail send or log write must not keep a restart waiting: after the
    // deadline the process ends whatever is still pending (unref'd: it never keeps it alive).
    setTimeout(() => {
      app.log.error(
        { signal, timeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS },
        'Herunterfahren dauert zu lange; Prozess wird beendet',
      );
      exit(1, true);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref();
    app.log.info({ signal }, 'Fahre herunter; laufende Anfragen werden beendet');
    try {
      await app.close();
      exit(0, false);
    } catch (error) {
      app.log.error({ err: error }, 'Fehler beim Herunterfahren');
      exit(1, false);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start fehlgeschlagen: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
