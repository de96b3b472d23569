import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/**
 * `--keep-reports N`: after a run, the files of all but the N newest runs of the same input in the
 * same folder (report, run record, errors file) are removed, so a nightly push does not fill the disk.
 * Only names b2bctl gives (`NAME.report-YYYYMMDD-HHMMSS[-n].csv` and its siblings) are touched.
 * Returns the removed paths.
 */
export function pruneOldRuns(options: { inputPath: string; folder?: string; keep: number }): string[] {
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
  const oldestFirst = [...runs.keys()].toSorted((a, b) => order(a).localeCompare(order(b)));
  const removed: string[] = [];
  for (const stamp of oldestFirst.slice(0, Math.max(0, oldestFirst.length - options.keep))) {
    for (const file of runs.get(stamp) ?? []) {
      rmSync(join(folder, file), { force: true });
      removed.push(join(folder, file));
    }
  }
  return removed;
}

/** Stamps sort as times; a same-second sequence (-2, -3) after its first run. */
function order(stamp: string): string {
  const [time, sequence] = [stamp.slice(0, 15), Number(stamp.slice(16) || '1')];
  return `${time}-${String(sequence).padStart(6, '0')}`;
}
