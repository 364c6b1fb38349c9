import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, readDotEnv } from './config.ts';
import { buildApp } from './app.ts';
import { restrictUmask } from './private-files.ts';

const webRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main(): Promise<void> {
  restrictUmask();
  readDotEnv();
  const config = loadConfig();
  const app = await buildApp({ config, webRoot });

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
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'Fahre herunter; laufende Anfragen werden beendet');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'Fehler beim Herunterfahren');
      process.exit(1);
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
