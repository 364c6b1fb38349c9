// Runs the given npm scripts side by side, as many at once as the machine has cores, and prints
// each one's output in one piece when it ends, so that the lines of two tools never mix. Fails
// when any of them fails, after all have ended. `npm run check` uses it: the type checks, lint and
// format check are single-threaded and slow one after another (decision 159 gives the figures).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('Aufruf: node scripts/run-parallel.mjs <npm-Skript> …');
  process.exit(2);
}

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(
        `\n> ${script}: ${ok ? 'bestanden' : `gescheitert (${signal ?? code})`}, ${seconds} s\n`,
      );
      process.stdout.write(Buffer.concat(output));
      resolve(ok);
    });
  });
}

const queue = [...scripts];
const failed = [];
async function lane() {
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    if (!(await run(script))) failed.push(script);
  }
}
const lanes = Math.max(1, Math.min(availableParallelism(), scripts.length));
await Promise.all(Array.from({ length: lanes }, lane));
if (failed.length > 0) {
  console.error(`\nGescheitert: ${failed.join(', ')}`);
  process.exit(1);
}
