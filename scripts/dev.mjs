// `npm run dev`: the API (restarted on every change) and the Vite dev server (hot reload) together.
// Vite forwards /api to the API on port 3000; open the address Vite prints. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const binOf = (pkg, bin) => {
  const manifest = require(`${pkg}/package.json`);
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin];
  return join(dirname(require.resolve(`${pkg}/package.json`)), relative);
};

const processes = [
  {
    name: 'api',
    args: [binOf('tsx', 'tsx'), 'watch', '--conditions=source', 'server/src/server.ts'],
    cwd: root,
    env: { NODE_ENV: 'development', PORT: '3000' },
  },
  {
    name: 'web',
    args: [binOf('vite', 'vite')],
    cwd: join(root, 'web'),
    env: {},
  },
];

const children = processes.map(({ name, args, cwd, env }) => {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} wurde beendet (${signal ?? `Code ${code}`}); beende auch den Rest.`);
      stop(code ?? 1);
    }
  });
  return child;
});

let stopping = false;
function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  // Whatever does not stop within five seconds is ended for good.
  const timer = setTimeout(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    process.exit(exitCode);
  }, 5_000);
  timer.unref();
  Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) resolve();
          else child.once('exit', resolve);
        }),
    ),
  ).then(() => process.exit(exitCode));
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
