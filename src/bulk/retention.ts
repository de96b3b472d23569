import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';

/**
 * `--keep-reports N`: after a run, the files of all but the N newest runs of the same input in the
 * same folder (report, run record, errors file) are removed, so a nightly push does not fill the disk.
 * Only names b2bctl gives (`NAME.report-YYYYMMDD-HHMMSS[-n].csv` and its siblings) are touched.
 * The run that is ending (`current`: its report and errors file) is the newest whatever the time in its names says,
 * and is always one of the N kept: after the clock was set back (an NTP correction, a VM restored) an earlier run's
 * names carry a later time, and ordered by names alone the run removed its own report, which its printed resume
 * command then named in vain. The other runs are ordered by the time in their names. Returns the removed paths.
 */
export function pruneOldRuns(options: {
  inputPath: string;
  folder?: string;
  keep: number;
  current?: readonly string[];
}): string[] {
  const folder = options.folder ?? (options.inputPath === '-' ? '.' : dirname(options.inputPath));
  const name = options.inputPath === '-' ? 'stdin' : basename(options.inputPath, extname(options.inputPath));
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ours = new RegExp(`^${escaped}\\.(?:report|errors)-(\\d{8}-\\d{6}(?:-\\d+)?)\\.(?:csv|ndjson|meta\\.json)$`);
  const runs = new Map<string, string[]>();
  for (const file of readdirSync(folder)) {
    const stamp = ours.exec(file)?.[1];
    if (stamp === undefined) continue;
    runs.set(stamp, [...(runs.get(stamp) ?? []), file]);
  }
  // estoque.csv and estoque.json share the base name: a run whose record names another input is not this one's.
  for (const [stamp, files] of runs) {
    const meta = files.find((file) => file.endsWith('.meta.json'));
    if (meta !== undefined && !recordsInput(join(folder, meta), options.inputPath)) runs.delete(stamp);
  }
  const currentStamps = new Set(
    (options.current ?? [])
      .filter((path) => resolve(dirname(path)) === resolve(folder))
      .map((path) => ours.exec(basename(path))?.[1])
      .filter((stamp) => stamp !== undefined && runs.has(stamp)),
  );
  const others = [...runs.keys()]
    .filter((stamp) => !currentStamps.has(stamp))
    .toSorted((a, b) => order(a).localeCompare(order(b)));
  const room = Math.max(0, options.keep - currentStamps.size);
  const removed: string[] = [];
  for (const stamp of others.slice(0, Math.max(0, others.length - room))) {
    for (const file of runs.get(stamp) ?? []) {
      rmSync(join(folder, file), { force: true });
      removed.push(join(folder, file));
    }
  }
  return removed;
}

/** Whether a run record names this input (stdin as `-`); an unreadable record names none, and its run is kept. */
function recordsInput(metaPath: string, inputPath: string): boolean {
  try {
    const recorded = (JSON.parse(readFileSync(metaPath, 'utf8')) as { input?: { path?: unknown } }).input?.path;
    if (typeof recorded !== 'string') return false;
    if (inputPath === '-') return recorded === '-' || recorded === '' || recorded === 'stdin';
    return resolve(recorded) === resolve(inputPath);
  } catch {
    return false;
  }
}

/** Stamps sort as times; a same-second sequence (-2, -3) after its first run. */
function order(stamp: string): string {
  const [time, sequence] = [stamp.slice(0, 15), Number(stamp.slice(16) || '1')];
  return `${time}-${String(sequence).padStart(6, '0')}`;
}
