// Workbook input against the CSV of the same rows, each figure beside its baseline measured in the same run:
//   `stock validate` of a 1,000,000-row .xlsx saved by LibreOffice (from the rows of scripts/generate-stock.mjs),
//   against `stock validate` of that CSV: peak RSS (target < 170 MB, the CSV path's bound) and wall and CPU time,
//   with their ratios (recorded in docs/decisions/0019-workbook-reader.md; no target on time).
// The workbook is made once with LibreOffice (`soffice`, about 90 s for a million rows) and kept in bench/.out/.
// Usage: npm run bench:workbooks [-- --quick]   (--quick: 200,000 rows)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, generated, megabytes, outDir, root, runCli, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const rows = process.argv.includes('--quick') ? 200_000 : 1_000_000;
const csv = await generated('generate-stock.mjs', rows);
const workbook = csv.replace(/\.csv$/, '.xlsx');
if (!existsSync(workbook)) {
  console.log(`making ${workbook} with LibreOffice (once)…`);
  const made = spawnSync(
    'soffice',
    [
      '--headless',
      '--infilter=Text - txt - csv (StarCalc):44,34,76,1',
      '--convert-to',
      'xlsx',
      '--outdir',
      outDir,
      csv,
    ],
    { stdio: 'inherit' },
  );
  if (made.status !== 0 || !existsSync(workbook)) {
    console.error('soffice could not make the workbook: apt-get install libreoffice-calc-nogui');
    process.exit(1);
  }
}

/** `stock validate FILE`: wall ms, CPU ms (bench/lib/cpu-time.cjs) and peak RSS. */
async function validate(file) {
  const cpuFile = join(outDir, `cpu-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const { env, cleanup } = benchEnv({ B2BCTL_BENCH_CPU_FILE: cpuFile });
  const result = await runCli(['stock', 'validate', file], {
    env,
    nodeFlags: ['--require', join(root, 'bench', 'lib', 'cpu-time.cjs')],
  });
  cleanup();
  if (result.code !== 0) throw new Error(`stock validate ${file} exited ${result.code}: ${result.stderr}`);
  if (!result.stderr.includes(`${rows} rows, ${rows} valid`)) throw new Error(`not every row read: ${result.stderr}`);
  const cpuMs = Number(readFileSync(cpuFile, 'utf8')) / 1000;
  rmSync(cpuFile, { force: true });
  return { wallMs: result.ms, cpuMs, maxRss: result.maxRss };
}

const fromCsv = await validate(csv);
const fromWorkbook = await validate(workbook);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`rows: ${rows}; load: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log(
  `time: .xlsx ${seconds(fromWorkbook.wallMs)} wall, ${seconds(fromWorkbook.cpuMs)} CPU; CSV ${seconds(fromCsv.wallMs)} wall, ${seconds(fromCsv.cpuMs)} CPU; ratio ${(fromWorkbook.wallMs / fromCsv.wallMs).toFixed(1)}x wall, ${(fromWorkbook.cpuMs / fromCsv.cpuMs).toFixed(1)}x CPU`,
);
const ok = verdict(
  'stock validate .xlsx, peak RSS',
  `${megabytes(fromWorkbook.maxRss)} (CSV ${megabytes(fromCsv.maxRss)}; target < 170 MB)`,
  fromWorkbook.maxRss < 170 * 1024 * 1024,
);
process.exit(ok ? 0 : 1);
