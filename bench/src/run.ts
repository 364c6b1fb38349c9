/**
 * `npm run bench [-- --quick] [-- --only=tree,login] [-- --runs=2] [-- --no-pin]`: builds a large
 * data set, starts the built portal and measures each scenario against its baseline from the
 * same run; writes its tables to bench/.tmp/RESULTS-full.md (the quick run, meant for CI,
 * bench/.tmp/RESULTS-quick.md; a run of some scenarios bench/.tmp/RESULTS-only.md). bench/RESULTS.md
 * is the report written by hand from them. `--runs=2` makes two whole runs one after the other, each
 * with a fresh data set and portal, and compares their ratios (decision 141: within ±10 %). Core
 * pinning (pinning.ts) is on wherever taskset and two cores exist.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createContext, type BenchContext } from './lib/context.ts';
import { createDataset, FULL_SIZE, QUICK_SIZE } from './lib/dataset.ts';
import { REPO_ROOT, startPortal } from './lib/portal.ts';
import { configureSeries, MIN_ROUNDS } from './lib/compare.ts';
import { configurePinning, moveProcess, moveSelf } from './lib/pinning.ts';
import {
  machine,
  renderAgreement,
  renderScenarios,
  writeSection,
  type ScenarioResult,
} from './lib/report.ts';
import { folderListingScenario } from './scenarios/folder-listing.ts';
import { healthScenario } from './scenarios/health.ts';
import { treeScenario } from './scenarios/tree.ts';
import { loginScenario } from './scenarios/login.ts';
import { downloadScenario } from './scenarios/download.ts';
import { downloadOffloadScenario } from './scenarios/download-offload.ts';
import { uploadScenario } from './scenarios/upload.ts';
import { lighthouseScenario } from './scenarios/lighthouse.ts';
import { interactionsScenario } from './scenarios/interactions.ts';
import { countersScenario } from './scenarios/counters.ts';
import { searchScenario } from './scenarios/search.ts';
import { bookScenario } from './scenarios/book.ts';
import { membersImportScenario } from './scenarios/members-import.ts';
import { votesScenario } from './scenarios/votes.ts';
import { readStateScenario } from './scenarios/read-state.ts';
import { growthRuns, growthScenario, renderGrowthComparison, setGrowthSize } from './scenarios/growth.ts';
import {
  DEFAULT_GROWTH,
  growDataset,
  LARGE_GROWTH,
  QUICK_GROWTH,
  type SizeName,
} from './lib/dataset-large.ts';

const SCENARIOS: Record<string, (ctx: BenchContext) => Promise<ScenarioResult>> = {
  health: healthScenario,
  tree: treeScenario,
  folder: folderListingScenario,
  readstate: readStateScenario,
  search: searchScenario,
  login: loginScenario,
  download: downloadScenario,
  offload: downloadOffloadScenario,
  upload: uploadScenario,
  lighthouse: lighthouseScenario,
  interactions: interactionsScenario,
  // Adds audit entries, reads and a meeting; `--size=large` grows the data set (decision 186).
  growth: growthScenario,
  // Adds committees and up to 5,000 accounts with memberships.
  import: membersImportScenario,
  // Adds 300 accounts with sessions, a committee and its motions (Beschlüsse, decision 190).
  votes: votesScenario,
  // Last: it adds a folder, documents and a meeting to the data set.
  book: bookScenario,
};

/**
 * Scenarios during which the portal has every core even when pinned: sign-ins (argon2 computes on
 * its own core beside the event loop, decision 113), Lighthouse and interactions (the browser is
 * measured, not the server) and the Sitzungsmappe (its helper process builds beside the event loop), as on a server.
 */
const UNPINNED = new Set(['login', 'lighthouse', 'interactions', 'book']);

/** Scenarios that measure code in this process: they need neither the data set nor the portal. */
const IN_PROCESS: Record<string, (options: { quick: boolean }) => Promise<ScenarioResult>> = {
  counters: countersScenario,
};

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    keep: { type: 'boolean' },
    pin: { type: 'boolean' },
    'no-pin': { type: 'boolean' },
    runs: { type: 'string', default: '1' },
    size: { type: 'string', default: 'default' },
  },
});
const quick = values.quick ?? false;
configureSeries({ rerunUnstable: !quick });
const known = [...Object.keys(SCENARIOS), ...Object.keys(IN_PROCESS)];
const only = values.only ? values.only.split(',') : known;
const unknown = only.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`Unbekannte Szenarien: ${unknown.join(', ')} (bekannt: ${known.join(', ')})`);
  process.exit(2);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 3) {
  console.error('--runs: 1 bis 3 Läufe');
  process.exit(2);
}
// `--size=default,large` runs each size with its own data set and portal, one after the other.
const sizes = (values.size ?? 'default').split(',') as SizeName[];
if (sizes.some((size) => size !== 'default' && size !== 'large') || (quick && sizes.includes('large'))) {
  console.error('--size: default, large oder default,large (nicht mit --quick)');
  process.exit(2);
}
// On by default where it works; `--pin` only states the default, `--no-pin` turns it off.
const pin = configurePinning(!values['no-pin']);
if (values.pin && !pin.enabled) console.warn(`--pin: ${pin.description}`);
console.log(`Kernbindung: ${pin.description}`);
// The portal and the baselines start through taskset on the server core, whatever this process's own.
moveSelf(pin.load);

let failures = 0;
async function measure(
  results: ScenarioResult[],
  name: string,
  scenario: () => Promise<ScenarioResult>,
): Promise<void> {
  console.log(`Szenario ${name} …`);
  const started = Date.now();
  try {
    const result = await scenario();
    results.push(result);
    console.log(renderScenarios([result]));
    console.log(`Szenario ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    failures += 1;
    console.error(`Szenario ${name} scheiterte:`, error);
  }
}

async function runWithPortal(names: string[], results: ScenarioResult[], size: SizeName): Promise<string[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'gremienportal-bench-'));
  const dataDir = join(workDir, 'data');
  await mkdir(dataDir);
  console.log(`Datenbestand wird erzeugt (${quick ? 'klein' : 'groß'}) in ${workDir} …`);
  const t0 = Date.now();
  // Building it measures nothing: every core.
  moveSelf(pin.all);
  const dataset = await createDataset(dataDir, quick ? QUICK_SIZE : FULL_SIZE, quick).finally(() =>
    moveSelf(pin.load),
  );
  console.log(`… fertig in ${((Date.now() - t0) / 1000).toFixed(1)} s:`, dataset.counts);
  if (size === 'large' || names.includes('growth')) {
    const t1 = Date.now();
    const target = quick ? QUICK_GROWTH(dataset) : size === 'large' ? LARGE_GROWTH : DEFAULT_GROWTH;
    const grown = growDataset(dataset, target);
    const { folders, files, users, events } = grown.counts;
    dataset.counts = { folders, files, users, events };
    setGrowthSize(size === 'large' ? 'groß' : quick ? 'schnell' : 'Standard', {
      'Aktivitäten-Einträge': grown.counts.auditRows,
      Lesestände: grown.counts.fileReads,
    });
    console.log(`… gewachsen in ${((Date.now() - t1) / 1000).toFixed(1)} s:`, grown);
  }

  const portal = await startPortal(dataDir, {
    // Room for the large upload of the upload scenario.
    MAX_UPLOAD_MB: String(Math.ceil(dataset.largeFile.bytes / 1024 ** 2) + 16),
    // Ten years of audit entries stay (the default keeps one year).
    AUDIT_RETENTION_DAYS: '4000',
  });
  const ctx = createContext({
    quick,
    phase: quick ? 1 : 4,
    rounds: quick ? MIN_ROUNDS.quick : MIN_ROUNDS.full,
    transferRounds: quick ? MIN_ROUNDS.quick : 9,
    workDir,
    dataset,
    portal,
  });
  try {
    // The portal and this process on every core, or back on their own.
    const allCores = (all: boolean) => {
      moveProcess(portal.pid, all ? pin.all : pin.server);
      moveSelf(all ? pin.all : pin.load);
    };
    for (const name of names) {
      const unpinned = UNPINNED.has(name);
      if (unpinned) allCores(true);
      try {
        await measure(results, name, () => SCENARIOS[name]!(ctx));
      } finally {
        if (unpinned) allCores(false);
      }
    }
  } finally {
    await portal.stop();
    if (!values.keep) await rm(workDir, { recursive: true, force: true });
  }
  return [
    `- Datenbestand: ${dataset.counts.folders} Ordner (bis 6 Ebenen), ${dataset.counts.files} Dateien, ${dataset.counts.users} Nutzer, ${dataset.counts.events} Events; SQLite und Plattenspeicher (Standardbetrieb)`,
    '- Das Portal läuft gebaut (`npm run build`) wie mit `npm start`, Protokollstufe `info`; Last und Portal teilen sich die Maschine.',
    `- Methode: ${ctx.rounds} Runden je Seite im Wechsel nach einer Aufwärmrunde, ${ctx.phase} s je Seite und Runde bei wrk; Verhältnis: Median der Runden (kleinster–größter Wert), Perzentile über die Antworten aller Runden zusammen; über ±15 % Streuung wird die Reihe ${quick ? 'im schnellen Lauf nicht wiederholt, sondern' : 'einmal wiederholt, dann'} „unstabil“ (bench/RESULTS.md, Abschnitt Methode).`,
  ];
}

/** One whole run: the in-process scenarios first, then a fresh data set and portal for the rest. */
async function oneRun(run: number, size: SizeName): Promise<{ results: ScenarioResult[]; report: string }> {
  const started = new Date();
  const results: ScenarioResult[] = [];
  // First, while nothing else runs on the machine.
  for (const name of only.filter((name) => name in IN_PROCESS)) {
    await measure(results, name, () => IN_PROCESS[name]!({ quick }));
  }
  const withPortal = only.filter((name) => name in SCENARIOS);
  const described: string[] = [];
  if (withPortal.length > 0) described.push(...(await runWithPortal(withPortal, results, size)));
  const title = `Benchmark (${quick ? 'schnell, kleiner Datenbestand' : 'voll'}${size === 'large' ? ', großer Datenbestand' : ''})`;
  const report = [
    runs > 1 ? `## ${title}, Lauf ${run} von ${runs}` : `## ${title}`,
    '',
    `- Datum: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Maschine: ${machine()}`,
    `- Kernbindung: ${pin.description}${pin.enabled ? ` (nicht bei ${[...UNPINNED].join(', ')}: dort hat das Portal alle Kerne)` : ''}; wrk mit einem Thread (\`-t1\`)`,
    ...described,
    '',
    renderScenarios(results),
  ].join('\n');
  return { results, report };
}

const reports: string[] = [];
const allResults: ScenarioResult[][] = [];
for (let run = 1; run <= runs; run += 1) {
  if (runs > 1) console.log(`Lauf ${run} von ${runs}`);
  for (const size of sizes) {
    const { results, report } = await oneRun(run, size);
    if (size === sizes[0]) allResults.push(results);
    reports.push(report);
  }
}
if (runs > 1) reports.push(renderAgreement(allResults));
if (growthRuns.length > 1) reports.push(renderGrowthComparison(growthRuns));
const report = reports.join('\n\n');
// bench/RESULTS.md is a report kept by hand (method, latest figures, known misses); every run
// writes its full tables under bench/.tmp, from which the report takes its figures.
const target = join(
  REPO_ROOT,
  quick
    ? 'bench/.tmp/RESULTS-quick.md'
    : sizes.includes('large')
      ? 'bench/.tmp/RESULTS-large.md'
      : values.only
        ? 'bench/.tmp/RESULTS-only.md'
        : 'bench/.tmp/RESULTS-full.md',
);
await mkdir(join(REPO_ROOT, 'bench/.tmp'), { recursive: true });
await writeSection(target, 'bench', report);
console.log(`Ergebnisse: ${target}`);
if (failures > 0) process.exit(1);
