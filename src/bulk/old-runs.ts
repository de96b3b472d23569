import { closeSync, constants, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { openNamedFileSync } from '../lib/named-file.js';
import { temporaryCopyOf } from '../lib/private-file.js';
import { isProcessAlive } from '../lib/process-alive.js';
import { sameBaseUrl } from '../net/base-url.js';
import type { RunMeta } from './run-meta.js';

/** Whose a run is: one export pushed by several stores' jobs is one input with several owners. */
export interface RunOwner {
  command: string;
  profile: string;
  baseUrl: string;
}

/**
 * How an earlier run stands, from its run record. `finished`: ended with nothing left for a resume. `sending`: its
 * process is still running it. `pending`: its resume command is still to be run (it was interrupted or stopped with
 * records left, or killed mid-way: its record says "running" of a process that is gone; or it is of an earlier
 * version, which did not say). `unrecorded`: a report with no run record, which no resume can read.
 */
type RunStanding = 'finished' | 'sending' | 'pending' | 'unrecorded';

/**
 * `--keep-reports N`: after a run, the files of all but the N newest runs of the same input in the same folder (report,
 * run record, errors file) by the same command, profile and store (`owner`) are removed, so a nightly push does not
 * fill the disk. Only names b2bctl gives (`NAME.report-YYYYMMDD-HHMMSS[-n].csv` and its siblings) are touched.
 * The runs of another owner are that owner's to prune: one export pushed to two stores had the second store's report
 * removed by the first's job, while that run was still sending, and its printed resume command then failed.
 * Past the N, a run still sending is kept, and so is one whose resume is still to be run, until N newer runs of its
 * owner have finished (each sent the whole export again, so what it left unsent went since).
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
  owner: RunOwner;
}): string[] {
  const { folder, ours } = runFilesOf(options.inputPath, options.folder);
  const runs = ownersRuns(folder, ours, options.inputPath, options.owner);
  const currentStamps = new Set(
    (options.current ?? [])
      .filter((path) => resolve(dirname(path)) === resolve(folder))
      .map((path) => ours.exec(basename(path))?.[1])
      .filter((stamp): stamp is string => stamp !== undefined && runs.has(stamp)),
  );
  const newestFirst = [...runs.keys()]
    .filter((stamp) => !currentStamps.has(stamp))
    .toSorted((a, b) => order(b).localeCompare(order(a)));
  const room = Math.max(0, options.keep - currentStamps.size);
  let finishedNewer = [...currentStamps].filter((stamp) => runs.get(stamp)?.standing === 'finished').length;
  const removed: string[] = [];
  for (const [index, stamp] of newestFirst.entries()) {
    const { files, standing } = runs.get(stamp) ?? { files: [], standing: 'sending' };
    const removable =
      standing === 'finished' || standing === 'unrecorded' || (standing === 'pending' && finishedNewer >= options.keep);
    if (standing === 'finished') finishedNewer++;
    if (index < room || !removable) continue;
    for (const file of files) {
      rmSync(join(folder, file), { force: true });
      removed.push(join(folder, file));
    }
  }
  return removed.toSorted();
}

/**
 * The copies that rewrites of this input's earlier runs' files left when the run was killed (SIGKILL, a power cut
 * while its errors file was put in order): hidden (`.stock.errors-20261130-013733.csv.<16 hex digits>.tmp`), each as
 * large as the file, and of a name no later run writes again, so no later rewrite sweeps them. Removed once the run
 * that wrote them is no longer sending (its process is gone); another owner's runs, and those whose record cannot be
 * read, are theirs, and left. Returns the removed paths.
 */
export function removeAbandonedCopiesOfRuns(options: {
  inputPath: string;
  folder?: string;
  owner: RunOwner;
}): string[] {
  const { folder, ours } = runFilesOf(options.inputPath, options.folder);
  const runs = ownersRuns(folder, ours, options.inputPath, options.owner);
  const removed: string[] = [];
  for (const entry of readdirSync(folder)) {
    const copyOf = temporaryCopyOf(entry);
    const stamp = copyOf === undefined ? undefined : ours.exec(copyOf)?.[1];
    const standing = stamp === undefined ? undefined : runs.get(stamp)?.standing;
    if (standing === undefined || standing === 'sending') continue;
    rmSync(join(folder, entry), { force: true });
    removed.push(join(folder, entry));
  }
  return removed;
}

/** The folder of an input's runs and the names b2bctl gives their files, with the run's stamp in them. */
function runFilesOf(inputPath: string, givenFolder: string | undefined): { folder: string; ours: RegExp } {
  const folder = givenFolder ?? (inputPath === '-' ? '.' : dirname(inputPath));
  const name = inputPath === '-' ? 'stdin' : basename(inputPath, extname(inputPath));
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ours = new RegExp(`^${escaped}\\.(?:report|errors)-(\\d{8}-\\d{6}(?:-\\d+)?)\\.(?:csv|ndjson|meta\\.json)$`);
  return { folder, ours };
}

/**
 * The files of each run (by the stamp in their names) of this input and owner in `folder`, and how the run stands.
 * A run whose record names another input (estoque.csv and estoque.json share the base name), another owner, or
 * cannot be read is left out, so kept: whose it is and how it stands are not known.
 */
function ownersRuns(
  folder: string,
  ours: RegExp,
  inputPath: string,
  owner: RunOwner,
): Map<string, { files: string[]; standing: RunStanding }> {
  const files = new Map<string, string[]>();
  for (const file of readdirSync(folder)) {
    const stamp = ours.exec(file)?.[1];
    if (stamp !== undefined) files.set(stamp, [...(files.get(stamp) ?? []), file]);
  }
  const runs = new Map<string, { files: string[]; standing: RunStanding }>();
  for (const [stamp, named] of files) {
    const meta = named.find((file) => file.endsWith('.meta.json'));
    if (meta === undefined) {
      runs.set(stamp, { files: named, standing: 'unrecorded' });
      continue;
    }
    const record = readRecord(join(folder, meta));
    if (record === undefined || !recordsInput(record, inputPath) || !ownedBy(record, owner)) continue;
    runs.set(stamp, { files: named, standing: standingOf(record) });
  }
  return runs;
}

/** A run record as its file holds it; undefined when it cannot be read (never through a link) or is not JSON. */
function readRecord(path: string): Partial<RunMeta> | undefined {
  try {
    const { descriptor } = openNamedFileSync(path, { flags: constants.O_NOFOLLOW ?? 0 });
    try {
      const record = JSON.parse(readFileSync(descriptor, 'utf8')) as unknown;
      return typeof record === 'object' && record !== null ? (record as Partial<RunMeta>) : undefined;
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return undefined;
  }
}

/** Whether a run record names this input (stdin as `-`). */
function recordsInput(record: Partial<RunMeta>, inputPath: string): boolean {
  const recorded = record.input?.path as unknown;
  if (typeof recorded !== 'string') return false;
  if (inputPath === '-') return recorded === '-' || recorded === '' || recorded === 'stdin';
  return resolve(recorded) === resolve(inputPath);
}

/** Whether a run record is of this command, profile and store; one that does not say is nobody's known. */
function ownedBy(record: Partial<RunMeta>, owner: RunOwner): boolean {
  const { command, profile, baseUrl } = record as Record<string, unknown>;
  return (
    command === owner.command &&
    profile === owner.profile &&
    typeof baseUrl === 'string' &&
    sameBaseUrl(baseUrl, owner.baseUrl)
  );
}

function standingOf(record: Partial<RunMeta>): RunStanding {
  const state = record.state;
  if (state?.kind === 'ended') return state.resumePending === false ? 'finished' : 'pending';
  if (state?.kind === 'running' && Number.isInteger(state.pid) && isProcessAlive(state.pid, state.processStart))
    return 'sending';
  return 'pending';
}

/** Stamps sort as times; a same-second sequence (-2, -3) after its first run. */
function order(stamp: string): string {
  const [time, sequence] = [stamp.slice(0, 15), Number(stamp.slice(16) || '1')];
  return `${time}-${String(sequence).padStart(6, '0')}`;
}
