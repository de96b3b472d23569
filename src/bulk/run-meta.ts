import { createHash } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, UsageError } from '../base/errors.js';
import { sameBaseUrl } from '../net/base-url.js';
import { writeFileDurably } from '../io/output/durable-file.js';
import { NamedFileRefusal, openNamedFileSync } from '../lib/named-file.js';
import { processStartTime } from '../lib/process-alive.js';
import { shellWord } from '../lib/shell-word.js';
import { printable } from '../lib/printable.js';
import { b2bctlLine } from '../config/location.js';

/** A flag that decides where or how records go, with the value it has when it was not given. */
export type ShapingValue = string | number | boolean | readonly string[] | undefined;
export interface ShapingFlag {
  /** The flag as typed: `--map`. */
  flag: string;
  /** The option it fills: `map`. */
  key: string;
  /** Its value when not given (`false` for switches, `auto` for --route); undefined otherwise. */
  unset?: ShapingValue;
  /** A path, recorded absolute so a resume from another folder reads the same file. */
  path?: boolean;
  /**
   * How fast, not where or how (`--rate`, `--timeout`): restored when a resume does not give it, and a resume
   * may give another value, which its own resume line then carries.
   */
  pacing?: boolean;
  /** Repeatable (`--ignore-column A --ignore-column B`): kept as a JSON list of its values, given again one by one. */
  list?: boolean;
}

/** A repeatable flag's values as the report keeps them (a JSON list), or the value as it is. */
function recordable(value: ShapingValue, list: boolean | undefined): string | number | boolean | undefined {
  if (!list) return value as string | number | boolean | undefined;
  return Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : undefined;
}

/** A repeatable flag's values from the report, or nothing. */
function listOf(recorded: string | number | boolean | undefined): string[] {
  return typeof recorded === 'string' ? (JSON.parse(recorded) as string[]) : [];
}

/**
 * What decides where and how a run's records went, kept beside its report, so `--resume` cannot send
 * the rest of a file to another store, through another command, or read with other flags.
 */
export interface RunMeta {
  version: 1;
  command: string;
  profile: string;
  baseUrl: string;
  /**
   * Whether the base URL came from --base-url or B2BCTL_BASE_URL rather than the profile, so the resume line
   * carries it: pasted in another shell, the variable is gone.
   */
  baseUrlFromFlag: boolean;
  /** The config folder when it came from the environment (B2BCTL_CONFIG_DIR, XDG_CONFIG_HOME), absolute. */
  configDir?: string;
  input: {
    path: string;
    size: number;
    fingerprint: string;
    /**
     * The SHA-256 of the whole input (up to wholeHashLimit bytes; past it, of 64 KiB samples across it): a
     * re-export of the same size that changed a value past the first 64 KiB is another input. Absent in the run
     * records of earlier versions, whose resumes compare the fingerprint only.
     */
    content?: string;
  };
  flags: Record<string, string | number | boolean>;
  /**
   * How the run stands, for the --keep-reports of later runs (retention.ts), which must never remove the files of a
   * run still sending, nor those its printed resume command names. Absent in the records of earlier versions.
   */
  state?: RunState;
}

/**
 * `running`: written as sending begins (and again by each resume), with the process that sends: a record that still
 * says so once that process is gone is of a run killed mid-way, whose report a resume reads. `ended`: how it ended,
 * and whether it left records for its resume command to send.
 */
export type RunState =
  | { kind: 'running'; pid: number; processStart?: string }
  | {
      kind: 'ended';
      exitCode: number;
      resumePending: boolean;
      /**
       * The origin a redirect that stopped the run named (the platform moved: http to https, another host): its
       * resume may send there, the one other base URL it accepts (checkResume).
       */
      movedTo?: string;
    };

/** The state of a run that this process is sending now. */
export function runningHere(): RunState {
  return { kind: 'running', pid: process.pid, processStart: processStartTime(process.pid) };
}

/** Bytes of the input hashed into its fingerprint: enough to tell two exports apart, cheap for a 1 GB file. */
const fingerprintBytes = 64 * 1024;

/** `c.report-20261122-021500.csv` → `c.report-20261122-021500.meta.json`. */
export function metaPathOf(reportPath: string): string {
  return `${reportPath.replace(/\.csv$/i, '')}.meta.json`;
}

/** Inputs up to this size are hashed whole (~0.1 s for 256 MiB); larger ones by samples, so a start stays quick. */
const wholeHashLimit = 256 * 1024 * 1024;
/** Samples of a larger input's content hash. */
const contentSamples = 1024;

export function describeInput(readPath: string): RunMeta['input'] & { readPath: string } {
  const size = statSync(readPath).size;
  const buffer = Buffer.alloc(Math.min(size, fingerprintBytes));
  const descriptor = openSync(readPath, 'r');
  try {
    readSync(descriptor, buffer, 0, buffer.length, 0);
    const fingerprint = createHash('sha256').update(buffer).digest('hex');
    return { path: '', readPath, size, fingerprint, content: contentHash(descriptor, size, buffer) };
  } finally {
    closeSync(descriptor);
  }
}

/** The content hash of RunMeta's input: every byte, or evenly spaced 64 KiB samples past wholeHashLimit. */
function contentHash(descriptor: number, size: number, buffer: Buffer): string {
  const hash = createHash('sha256');
  const step = size <= wholeHashLimit ? buffer.length : Math.floor(size / contentSamples);
  for (let at = 0; buffer.length > 0 && at < size; at += Math.max(step, buffer.length)) {
    const read = readSync(descriptor, buffer, 0, Math.min(buffer.length, size - at), at);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
  }
  return `${size <= wholeHashLimit ? 'whole' : 'sampled'}:${hash.digest('hex')}`;
}

/** The shaping flags' values as given, paths made absolute, unset ones left out. */
export function recordedFlags(
  shaping: readonly ShapingFlag[],
  options: Readonly<Record<string, unknown>>,
): Record<string, string | number | boolean> {
  const recorded: Record<string, string | number | boolean> = {};
  for (const { key, unset, path, list } of shaping) {
    const value = recordable(options[key] as ShapingValue, list);
    if (value === undefined || value === unset) continue;
    recorded[key] = path && typeof value === 'string' ? resolve(value) : value;
  }
  return recorded;
}

export function writeMeta(reportPath: string, meta: RunMeta): void {
  writeFileDurably(metaPathOf(reportPath), `${JSON.stringify(meta, null, 2)}\n`);
}

/**
 * Rewrites only the state of the run record beside `reportPath`, as the file holds it (not as this run restored its
 * flags): never through a link, whole or not at all.
 */
export function recordRunState(reportPath: string, state: RunState): void {
  const path = metaPathOf(reportPath);
  const { descriptor } = openNamedFileSync(path, { flags: constants.O_NOFOLLOW ?? 0 });
  let recorded: RunMeta;
  try {
    recorded = JSON.parse(readFileSync(descriptor, 'utf8')) as RunMeta;
  } finally {
    closeSync(descriptor);
  }
  writeFileDurably(path, `${JSON.stringify({ ...recorded, state }, null, 2)}\n`);
}

export function readMeta(reportPath: string): RunMeta {
  const path = metaPathOf(reportPath);
  try {
    // The report itself, not where a link leads: one another user planted in a shared folder would choose which
    // run's rows count as done. Refused here, before either file is read (the append would refuse it later anyway).
    if (lstatSync(reportPath).isSymbolicLink()) throw linkedResumeFile(reportPath, 'the report');
    statSync(reportPath);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${printable(reportPath)}: cannot read the report to resume from (${code}).`, {
      file: reportPath,
      missing: true,
    });
  }
  let meta: RunMeta;
  try {
    // The run record never through a link either: one pointing at another run's record of the same input would
    // bring back that run's --map, route and profile.
    const { descriptor } = openNamedFileSync(path, { flags: constants.O_NOFOLLOW ?? 0 });
    try {
      meta = JSON.parse(readFileSync(descriptor, 'utf8')) as RunMeta;
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    const code =
      (error as NodeJS.ErrnoException).code ?? (error instanceof NamedFileRefusal ? error.message : 'not JSON');
    if (code === 'ELOOP') throw linkedResumeFile(reportPath, `its run record ${printable(path)}`);
    throw new UsageError(
      `Cannot resume from ${printable(reportPath)}: its run record ${printable(path)} is unreadable (${code}), so where its records went is unknown; nothing was sent.`,
    );
  }
  if (
    meta?.version !== 1 ||
    typeof meta.command !== 'string' ||
    typeof meta.profile !== 'string' ||
    typeof meta.baseUrl !== 'string' ||
    typeof meta.input !== 'object' ||
    meta.input === null ||
    typeof meta.flags !== 'object' ||
    meta.flags === null
  )
    throw new UsageError(
      `Cannot resume from ${printable(reportPath)}: ${printable(path)} is not a b2bctl run record; nothing was sent.`,
    );
  return meta;
}

/** A --resume report or run record that is a symbolic link: refused (exit 2), nothing read through it. */
function linkedResumeFile(reportPath: string, which: string): UsageError {
  return new UsageError(
    `Cannot resume from ${printable(reportPath)}: ${which} is a symbolic link, which b2bctl never follows; nothing was sent. Resume from the report itself, the one the interrupted run wrote, beside its run record.`,
  );
}

/**
 * Refuses (exit 2, naming the difference) a resume of another command, profile, base URL or input, and a
 * shaping flag given with another value. Returns the interrupted run's values of the shaping flags this run did
 * not give, to be restored, and the run record as this resume carries it on: the base URL the platform moved to,
 * and the pacing flags given again (`--rate 5`), so that a later bare `--resume` paces as the resume line it prints
 * says. `meta` itself is left as read; the caller writes the record when it changed.
 */
export function checkResume(options: {
  reportPath: string;
  meta: RunMeta;
  command: string;
  profile: string;
  baseUrl: string;
  input: RunMeta['input'];
  shaping: readonly ShapingFlag[];
  flags: Readonly<Record<string, unknown>>;
  /** This run's config folder, to name the one the interrupted run used when they differ. */
  configDir?: string;
}): { restored: Record<string, ShapingValue>; record: RunMeta } {
  const { reportPath } = options;
  const meta: RunMeta = { ...options.meta, flags: { ...options.meta.flags } };
  const refuse = (difference: string) =>
    new UsageError(`Cannot resume from ${printable(reportPath)}: ${difference}; nothing was sent.`);
  if (meta.command !== options.command)
    throw refuse(`it is the report of b2bctl ${meta.command}, not of b2bctl ${options.command}`);
  if (meta.profile !== options.profile)
    throw refuse(
      `it was written for profile "${meta.profile}", this run uses "${options.profile}" (add --profile ${meta.profile}${otherFolder(meta, options.configDir)})`,
    );
  if (!sameBaseUrl(meta.baseUrl, options.baseUrl) && movedThere(meta, options.baseUrl))
    // The platform said it moved there: the same store, whose report and records this resume carries on.
    meta.baseUrl = options.baseUrl;
  else if (!sameBaseUrl(meta.baseUrl, options.baseUrl))
    throw refuse(
      `it was written for ${meta.baseUrl}, this run would send to ${options.baseUrl} (add --base-url ${meta.baseUrl}${otherFolder(meta, options.configDir)})`,
    );
  if (
    meta.input.size !== options.input.size ||
    meta.input.fingerprint !== options.input.fingerprint ||
    (meta.input.content !== undefined && meta.input.content !== options.input.content)
  )
    throw refuse(
      `it is the report of ${printable(meta.input.path)} (${meta.input.size} bytes), and this input is another file or was changed since (${options.input.size} bytes). Resume with the file that run read, as it was; or send the changed file as a new run without --resume, where records the first run sent may be refused as sent already (customer create: --upsert updates them)`,
    );
  const restored: Record<string, ShapingValue> = {};
  for (const { flag, key, unset, path, pacing, list } of options.shaping) {
    const recorded = meta.flags[key];
    const givenRaw = recordable(options.flags[key] as ShapingValue, list);
    const given = path && typeof givenRaw === 'string' ? resolve(givenRaw) : givenRaw;
    if (given === undefined || given === unset) {
      // Not given now: the interrupted run's value (or its absence) holds.
      restored[key] = list ? listOf(recorded) : (recorded ?? unset);
      continue;
    }
    if (pacing) {
      meta.flags[key] = given as string | number | boolean;
      continue;
    }
    if (given !== recorded)
      throw refuse(
        `it was written with ${recorded === undefined ? `no ${flag}` : `${flag} ${String(recorded)}`}, this run gives ${flag} ${String(given)}`,
      );
  }
  return { restored, record: meta };
}

/** Whether the run stopped at a redirect to the origin of `baseUrl` (the platform moved there). */
function movedThere(meta: RunMeta, baseUrl: string): boolean {
  if (meta.state?.kind !== 'ended' || meta.state.movedTo === undefined) return false;
  try {
    return new URL(baseUrl).origin === meta.state.movedTo;
  } catch {
    return false;
  }
}

/** `, and B2BCTL_CONFIG_DIR=… before b2bctl` when the interrupted run's config folder was another one. */
function otherFolder(meta: RunMeta, configDir: string | undefined): string {
  if (meta.configDir === undefined || configDir === undefined || resolve(configDir) === meta.configDir) return '';
  return `, and B2BCTL_CONFIG_DIR=${shellWord(meta.configDir)} before b2bctl`;
}

export { shellWord };

/**
 * The command that resumes a run, complete, to paste in any shell: the config folder when the environment chose
 * it (`B2BCTL_CONFIG_DIR=… b2bctl …`), the profile, the base URL unless the profile holds it, every shaping flag;
 * for a run read from stdin, followed by the words saying that its input must be fed to it again.
 */
export function resumeCommand(meta: RunMeta, shaping: readonly ShapingFlag[], file: string, report: string): string {
  const command = commandLine(meta, shaping, file, ['--resume', report]);
  // Stdin is not kept: pasted alone, the command waits on the keyboard, or gets cron's empty stdin and is refused as
  // another input. It resumes only with the same bytes fed to it again.
  return file === '-' ? `${command}, with the same input piped into it again (… < FILE, or PROGRAM | …)` : command;
}

/**
 * Flags a fed-back errors file is not sent with. `--encoding`: b2bctl writes that file in UTF-8 whatever the input's
 * encoding. `--skip-invalid`: its records were fixed by hand, so one still invalid is a fix missed, to be told before
 * anything is sent rather than reported and passed over.
 */
const notForFeedBack: ReadonlySet<string> = new Set(['encoding', 'skipInvalid']);

/**
 * The command that sends a run's errors file once fixed: to the same config folder, profile and base URL as the
 * run, read and sent with its flags, as the resume command does; pasted without them, the records would go to
 * whatever store the default profile names, by another route. `fixFlags`: the keys of the command's switches that
 * some failed record needs (`upsert` for a customer registered already), set on it, or it fails them again.
 */
export function feedBackCommand(
  meta: RunMeta,
  shaping: readonly ShapingFlag[],
  errorsFile: string,
  written?: ErrorsFileFormat,
  fixFlags: ReadonlySet<string> = new Set(),
): string {
  const flags = { ...meta.flags, ...Object.fromEntries([...fixFlags].map((key) => [key, true])) };
  return commandLine(
    { ...meta, flags: written ? describingErrorsFile(flags, written) : flags },
    shaping.filter(({ key }) => !notForFeedBack.has(key)),
    errorsFile,
    [],
  );
}

/** How a CSV errors file is written: the input's delimiter and decimal separator, or `,` and `.` for a workbook's. */
export interface ErrorsFileFormat {
  delimiter: string;
  decimal: string;
}

/**
 * The run's flags with `--delimiter` and `--decimal`, when given, saying how the errors file is written rather than
 * how the input was: a workbook read with `--decimal ,` or `--delimiter ';'` out of habit has a `,` errors file with
 * decimal points, which those flags would refuse.
 */
function describingErrorsFile(flags: RunMeta['flags'], written: ErrorsFileFormat): RunMeta['flags'] {
  return {
    ...flags,
    ...(flags.delimiter !== undefined && { delimiter: written.delimiter }),
    ...(flags.decimal !== undefined && { decimal: written.decimal }),
  };
}

/** `b2bctl COMMAND FILE` sent where and how the run of `meta` sent its records, then `tail`; quoted for the shell. */
function commandLine(meta: RunMeta, shaping: readonly ShapingFlag[], file: string, tail: readonly string[]): string {
  const words = [...meta.command.split(' '), file];
  words.push('--profile', meta.profile);
  if (meta.baseUrlFromFlag) words.push('--base-url', meta.baseUrl);
  for (const { flag, key, list } of shaping) {
    const value = meta.flags[key];
    if (value === undefined || value === false) continue;
    if (list) words.push(...listOf(value).flatMap((each) => [flag, each]));
    else words.push(flag, ...(value === true ? [] : [String(value)]));
  }
  words.push(...tail);
  return b2bctlLine(meta.configDir, words.map(shellWord).join(' '));
}
