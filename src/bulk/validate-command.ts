import { tmpdir } from 'node:os';
import type { Context } from '../context.js';
import { InputError, InterruptedError } from '../base/errors.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import { type InputRecord, type OpenedInput, skippedNote } from '../io/input/open-input.js';
import { countOf } from '../lib/plural.js';
import { openCommandInput } from './command-input.js';
import type { InputFlags } from './flags.js';
import { checkingProgress } from './checking-progress.js';
import { changedWhileRead, fileIdentity } from './file-identity.js';
import { advisoryLogger, problemOutput, type ProblemOutput } from './problem-output.js';
import { runValidationPass, type RecordChecker } from './validation-pass.js';
import { type ThreadedValidation, validateOnThread, type ValidationPlace, validationPlace } from './validate-thread.js';
import { inputName } from '../io/input/byte-source.js';
import { removeAbandonedSpools } from './verdict-spool.js';

export interface ValidateCommand<T> {
  file: string;
  flags: InputFlags;
  catalogue: FieldCatalogue;
  checker: RecordChecker<T>;
  /** The command that sends the file once it is valid, for the closing advice: `customer update`, `stock push`. */
  sentBy: string;
  /** Values the platform accepts but that look wrong: warnings, counted in the summary, never a failure. */
  advisories?: (record: InputRecord) => readonly { message: string }[];
  /** The verb as a thread runs it again, for a large workbook (see validate-thread.ts). */
  thread?: ThreadedValidation;
}

/**
 * The one flow of every `<group> validate`: check every record locally, print every problem, send nothing.
 * One rule for the empty file: no records (no bytes, or a header only) is "nothing to check", exit 0 with a note,
 * the same as the bulk commands' "nothing to send"; only invalid records fail (exit 65).
 */
export async function runValidateCommand<T>(command: ValidateCommand<T>, context: Context): Promise<void> {
  const { thread } = command;
  // What killed bulk runs left in the temporary folder (their verdicts, their copies of stdin) goes, as a bulk run
  // removes it: a nightly validate before each push kept every killed push's copy (a user test).
  removeAbandonedSpools(tmpdir());
  const place: ValidationPlace = thread ? await validationPlace(command.file, context) : { here: {} };
  if (thread && 'thread' in place) {
    const { size, stdinCopy } = place.thread;
    try {
      return await validateOnThread(thread, command.file, size, context, { stdinCopy: stdinCopy?.path });
    } finally {
      stdinCopy?.remove();
    }
  }
  const here = 'here' in place ? place.here : {};
  // The closing line's time counts the opening too: a workbook's shared strings and merged cells are read there,
  // seconds of a large one.
  const started = context.clock.now();
  // Taken before the file is opened: problems found in a file rewritten as it is read are the rewrite's.
  const identity = command.file === '-' ? undefined : fileIdentity(command.file);
  const unchanged = () => {
    if (command.file !== '-' && fileIdentity(command.file) !== identity)
      throw new InputError(
        `${changedWhileRead(inputName(command.file))}: what was checked is not the file as it now stands. Run again once the export is complete, or copy it first and validate the copy.`,
        { file: command.file },
      );
  };
  try {
    const input = await openCommandInput(context, command.file, command.flags, command.catalogue, {
      stdin: here.stdin,
      // Validate sends nothing whatever the file holds: "nothing was sent" in a refusal would read as if it could have.
      sends: false,
      // Checked after each chunk read as well: no problem of a half-rewritten file is printed as the file's.
      unchanged,
    });
    try {
      await validateEveryRecord(command, input, context, started, unchanged);
    } finally {
      input.close();
    }
  } finally {
    here.done?.();
  }
}

async function validateEveryRecord<T>(
  command: ValidateCommand<T>,
  input: OpenedInput,
  context: Context,
  started: number,
  unchanged: () => void,
): Promise<void> {
  // The data names the file as it is (JSON and CSV quote what they must); input.file is its name in messages.
  const output = problemOutput(context, command.file === '-' ? 'stdin' : command.file, input.format, command.catalogue);
  const progress = checkingProgress(context, 'records checked');
  // Problems printed on the terminal that shows the count would be drawn over: the count gives way to them.
  const onProblem: ProblemOutput['write'] = context.io.isStdoutTTY
    ? (line, problem, place) => {
        progress.stop();
        return output.write(line, problem, place);
      }
    : output.write;
  const advisories = command.advisories
    ? advisoryLogger(context, input.file, command.advisories, command.catalogue)
    : undefined;
  // Warnings of a large file come a line per record: logged in batches (see Logger.batched).
  const summary = await context.log
    .batched(() =>
      runValidationPass({
        batches: input.recordBatches(),
        checker: command.checker,
        estimatedRecords: input.estimatedRecords,
        onProblem,
        onBatch: progress.update,
        signal: context.interrupt,
        // A record's warnings are logged once it is judged, before its problems: no second generator over the records.
        onVerdict: advisories?.log,
      }),
    )
    // Cleared before the closing line, or the error, is printed.
    .finally(progress.stop)
    // A pass stopped part-way (the file changed under it) still ends what it printed: `-o json` stays one array.
    .catch(async (error: unknown) => {
      await output.end().catch(() => {});
      throw error;
    });
  await output.end();
  // Ctrl-C ends the pass at a record: what was read is no verdict on the file, and exit 0 would tell a script
  // it is fine (and an interrupted header-only read said "nothing to check"). One after the last record is not.
  if (summary.interrupted)
    throw new InterruptedError(
      `Interrupted after ${countOf(summary.records, 'records')} of ${input.file} (${summary.invalid > 0 ? `${summary.invalid} invalid so far, listed above` : 'none invalid so far'}); the rest was not checked. Run it again to check the whole file.`,
    );
  const seconds = (context.clock.now() - started) / 1000;
  context.log.info(
    `${input.file}: ${countOf(summary.records, 'records')}, ${summary.valid} valid, ${summary.invalid} invalid (${countOf(summary.problems, 'problems')}${advisories?.count ? `, ${countOf(advisories.count, 'warnings')}` : ''}${skippedNote(input)}) in ${seconds.toFixed(1)} s.`,
  );
  // Before any verdict on the records: those of a file rewritten as it was read are the rewrite's.
  unchanged();
  // An empty file has no header either (the reader then gives no CSV headers): say which it is.
  if (summary.records === 0)
    context.log.info(
      `${input.file} ${input.csv ? 'has a header but no records' : 'has no records'}; nothing to check.`,
    );
  if (summary.invalid > 0)
    throw new InputError(
      `${summary.invalid} of ${countOf(summary.records, 'records')} of ${input.file} ${summary.invalid === 1 ? 'is' : 'are'} invalid (listed above); validate sends nothing, fix ${summary.invalid === 1 ? 'it' : 'them'} before ${command.sentBy}.`,
      { file: input.file },
    );
}
