// Workbook input against the CSV of the same rows, each figure beside its baseline measured in the same run:
//   `stock validate` of a 1,000,000-row .xlsx and .ods saved by LibreOffice (from the rows of
//   scripts/generate-stock.mjs), and of the .xlsx piped on stdin (`cat estoque.xlsx | b2bctl stock validate -`),
//   against `stock validate` of that CSV: peak RSS (target < 170 MB, the CSV path's bound) and wall and CPU time,
//   with their ratios (recorded in docs/decisions/0019-workbook-reader.md; no target on time).
// The workbooks are made once with LibreOffice (`soffice`: about 90 s for the .xlsx, 35 s for the .ods of a million
// rows) and kept in bench/.out/.
// Usage: npm run bench:workbooks [-- --quick]   (--quick: 200,000 rows)
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, generated, megabytes, outDir, root, runCli, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const rows = process.argv.includes('--quick') ? 200_000 : 1_000_000;
const csv = await generated('generate-stock.mjs', rows);

/** The CSV saved by LibreOffice as `format` (xlsx or ods), made once. */
function savedByLibreOffice(format) {
  const workbook = csv.replace(/\.csv$/, `.${format}`);
  if (existsSync(workbook)) return workbook;
  console.log(`making ${workbook} with LibreOffice (once)…`);
  const made = spawnSync(
    'soffice',
    [
      '--headless',
      '--infilter=Text - txt - csv (StarCalc):44,34,76,1',
      '--convert-to',
      format,
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
  return workbook;
}

/** `stock validate FILE` (or `-` with `stdinFile` piped in): wall ms, CPU ms (bench/lib/cpu-time.cjs) and peak RSS. */
async function validate(file, stdinFile) {
  const cpuFile = join(outDir, `cpu-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const { env, cleanup } = benchEnv({ B2BCTL_BENCH_CPU_FILE: cpuFile });
  const result = await runCli(['stock', 'validate', file], {
    env,
    input: stdinFile === undefined ? undefined : createReadStream(stdinFile),
    nodeFlags: ['--require', join(root, 'bench', 'lib', 'cpu-time.cjs')],
  });
  cleanup();
  if (result.code !== 0) throw new Error(`stock validate ${file} exited ${result.code}: ${result.stderr}`);
  if (!result.stderr.includes(`${rows} rows, ${rows} valid`)) throw new Error(`not every row read: ${result.stderr}`);
  const cpuMs = Number(readFileSync(cpuFile, 'utf8')) / 1000;
  rmSync(cpuFile, { force: true });
  return { wallMs: result.ms, cpuMs, maxRss: result.maxRss };
}

const xlsx = savedByLibreOffice('xlsx');
const ods = savedByLibreOffice('ods');
const fromCsv = await validate(csv);
const measured = [
  ['.xlsx', await validate(xlsx)],
  ['.ods', await validate(ods)],
  ['.xlsx on stdin', await validate('-', xlsx)],
];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`rows: ${rows}; load: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
let ok = true;
for (const [name, figures] of measured) {
  console.log(
    `time: ${name} ${seconds(figures.wallMs)} wall, ${seconds(figures.cpuMs)} CPU; CSV ${seconds(fromCsv.wallMs)} wall, ${seconds(fromCsv.cpuMs)} CPU; ratio ${(figures.wallMs / fromCsv.wallMs).toFixed(1)}x wall, ${(figures.cpuMs / fromCsv.cpuMs).toFixed(1)}x CPU`,
  );
  ok =
    verdict(
      `stock validate ${name}, peak RSS`,
      `${megabytes(figures.maxRss)} (CSV ${megabytes(fromCsv.maxRss)}; target < 170 MB)`,
      figures.maxRss < 170 * 1024 * 1024,
    ) && ok;
}
process.exit(ok ? 0 : 1);
