/**
 * `npm run test:mutation [-- module|file…]`: runs Stryker over each module of modules.ts in turn (all by default), or
 * over single files of them, then prints the scores of the modules touched. Each module has its own incremental file
 * (tests/mutation/<module>.json, committed): a rerun tests only the mutants whose code or covering tests changed, and a
 * run over one file (or lines of it: `server/auth/rights.ts:40-60`) keeps the module's results for the rest, so a
 * module can be measured a few files at a time.
 * The report of the last run is reports/mutation/<module>/index.html.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MUTATION_MODULES, type MutationModule } from './modules';

type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'Ignored' | 'CompileError' | 'RuntimeError' | 'Pending';

interface Report {
  files: Record<string, { mutants: { status: Status }[] }>;
}

interface Score {
  name: string;
  detected: number;
  survived: number;
  noCoverage: number;
  ignored: number;
}

function mutate(module: MutationModule, files: string[], strykerArgs: string[], tests: string | undefined): void {
  const suites = { VIGIL_MUTATION_SUITES: module.suites.join(','), VIGIL_MUTATION_FILES: (module.files ?? []).join(','), ...(tests ? { VIGIL_MUTATION_TESTS: tests } : {}) };
  const env = { ...process.env, VIGIL_MUTATION_MODULE: module.name, VIGIL_MUTATE: files.join(','), ...suites };
  const run = spawnSync('node_modules/.bin/stryker', ['run', ...strykerArgs], { env, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`Stryker failed on ${module.name} (exit ${run.status ?? run.signal})`);
}

function score(name: string, mutants: { status: Status }[]): Score {
  const count = (...statuses: Status[]) => mutants.filter((m) => statuses.includes(m.status)).length;
  return { name, detected: count('Killed', 'Timeout'), survived: count('Survived'), noCoverage: count('NoCoverage'), ignored: count('Ignored') };
}

function scores(module: MutationModule): Score[] {
  const report = JSON.parse(readFileSync(`reports/mutation/${module.name}/report.json`, 'utf8')) as Report;
  const files = Object.entries(report.files).map(([file, { mutants }]) => score(file, mutants));
  const all = score(module.name, Object.values(report.files).flatMap((f) => f.mutants));
  return [all, ...files];
}

const percent = (s: Score) => {
  const valid = s.detected + s.survived + s.noCoverage;
  return valid ? `${((100 * s.detected) / valid).toFixed(1)} %` : '–';
};

const line = (s: Score) => `${s.name.padEnd(34)} ${percent(s).padStart(8)} ${String(s.detected).padStart(8)} ${String(s.survived).padStart(8)} ${String(s.noCoverage).padStart(8)} ${String(s.ignored).padStart(8)}`;

// Whether a module's entry (a file, or every .ts file under a folder) takes in `file` (which may name lines: `a.ts:10-20`).
const covers = (glob: string, file: string) => {
  const name = file.replace(/:[\d-]+$/, '');
  return glob.endsWith('/**/*.ts') ? name.startsWith(glob.slice(0, -'**/*.ts'.length)) && name.endsWith('.ts') : glob === name;
};

/** The files asked for, by module: a module's name stands for all its files. */
function selection(wanted: string[]): Map<MutationModule, string[]> {
  if (wanted.length === 0) return new Map(MUTATION_MODULES.map((m) => [m, m.mutate]));
  const chosen = new Map<MutationModule, string[]>();
  for (const name of wanted) {
    const module = MUTATION_MODULES.find((m) => m.name === name || m.mutate.some((glob) => covers(glob, name)));
    if (!module) throw new Error(`${name} is in no module (modules: ${MUTATION_MODULES.map((m) => m.name).join(', ')})`);
    chosen.set(module, [...(chosen.get(module) ?? []), ...(module.name === name ? module.mutate : [name])]);
  }
  return chosen;
}

// `--tests=a.test.ts,b.test.ts`: the integration test files to run instead of the module's suites, for a file every
// call reaches (a survivor there would run all of them): the score is then a lower bound, as a mutant the files miss
// may be killed by a test outside them. Other options (`--force`: test the mutants again, though nothing changed;
// Stryker reuses results by test name, and an edited test keeps its name) go to Stryker.
const args = process.argv.slice(2);
const TESTS = '--tests=';
const tests = args.find((a) => a.startsWith(TESTS))?.slice(TESTS.length);
const chosen = selection(args.filter((a) => !a.startsWith('--')));
for (const [module, files] of chosen) mutate(module, files, args.filter((a) => a.startsWith('--') && !a.startsWith(TESTS)), tests);
const modules = [...chosen.keys()];

console.log(`\n${'module / file'.padEnd(34)} ${'score'.padStart(8)} ${'killed'.padStart(8)} ${'survived'.padStart(8)} ${'no cover'.padStart(8)} ${'static'.padStart(8)}`);
for (const module of modules) for (const s of scores(module)) console.log(line(s));
