import type { Context } from '../context.js';
import type { FieldProblem } from '../domain/validation.js';
import type { InputRecord } from '../io/input/open-input.js';
import { printable } from '../lib/printable.js';
import { shellWord } from '../lib/shell-word.js';
import { countOf } from '../lib/plural.js';
import { FailureReasons } from './failure-reasons.js';
import type { InputFlags } from './flags.js';
import type { FieldCatalogue } from '../io/input/record-shape.js';
import { problemLogger, shownProblem } from './problem-output.js';

type Place = Pick<InputRecord, 'line' | 'row' | 'column' | 'element'>;

/**
 * The record problems a bulk run prints one by one on stderr (decision 0036): enough to see what is wrong and fix the
 * first records, a screen or two; an export wrong in every row printed 494,862 lines (155 MB) into a cron log a night.
 */
export const problemLinesPrinted = 100;

/**
 * The validate command that lists every problem of a bulk command's file, as its words after `b2bctl` and the
 * command's own flags that change the verdicts (`--update`, `--allow-zero-price`).
 */
export interface ListingCommand {
  verb: string;
  flags?: readonly string[];
}

/** Where a summed-up run's every problem is listed: this run's errors file, or a command that lists them. */
export type ProblemList =
  { errorsFile: string } | { listing: ListingCommand | undefined; file: string; flags: InputFlags };

/**
 * A bulk run's problem lines: the first `problemLinesPrinted` printed as they are found (`file:line: message`, as
 * `validate` prints them), the rest counted by reason as the sent records' failures are (FailureReasons), and summed up
 * once the pass ends, with where every one of them is listed. The same on a terminal and in cron: a log is no place
 * for half a million lines, and a person at a terminal gets the whole list from the command the last line names.
 */
export class ProblemLines {
  private printed = 0;
  private readonly rest = new FailureReasons();
  private restCount = 0;
  private summedUp = false;
  private lastShown: { raw: string; field: string; message: string } | undefined;
  private readonly print: (line: number, problem: FieldProblem, place?: Place) => void;

  private readonly context: Context;
  private readonly shownName: string;
  private readonly catalogue?: Pick<FieldCatalogue, 'isSecret'>;
  constructor(context: Context, shownName: string, catalogue?: Pick<FieldCatalogue, 'isSecret'>) {
    this.context = context;
    this.shownName = shownName;
    this.catalogue = catalogue;

    this.print = problemLogger(context, shownName, catalogue);
  }

  /** Prints the problem, or counts it once `problemLinesPrinted` are printed. */
  readonly log = (line: number, problem: FieldProblem, place?: Place): void => {
    if (this.printed < problemLinesPrinted) {
      this.printed++;
      this.print(line, problem, place);
      return;
    }
    this.restCount++;
    const { row, column, element } = place ?? {};
    this.rest.add({
      line: place?.line ?? line,
      row,
      column,
      element,
      message: this.shown(problem),
      outcome: 'invalid',
    });
  };

  /**
   * The problem's message as printed: a secret value masked in it as on the lines above, on one line. An export wrong
   * in every row repeats one message half a million times: the last one is worded once.
   */
  private shown(problem: FieldProblem): string {
    if (problem.message !== this.lastShown?.raw || problem.field !== this.lastShown.field)
      this.lastShown = {
        raw: problem.message,
        field: problem.field,
        message: printable(shownProblem(problem, this.catalogue).message),
      };
    return this.lastShown.message;
  }

  /** What the error that ends an invalid run says of the problems printed: all of them, or the first ones. */
  get listed(): string {
    return this.restCount === 0
      ? 'listed above'
      : `the first ${problemLinesPrinted} of their problems listed above, the other ${this.restCount} summed up`;
  }

  /**
   * The problems not printed, by reason, the most common first, each with its count and first record's line; then
   * where every problem is listed. Said once, and only when some were not printed.
   */
  sumUp(list: ProblemList): void {
    if (this.restCount === 0 || this.summedUp) return;
    this.summedUp = true;
    const warn = (line: string) => this.context.log.warn(line);
    const lead = `${this.shownName}: `;
    warn(
      `${lead}${countOf(this.restCount, 'more problems')} not printed one by one (only the first ${problemLinesPrinted} are); by reason:`,
    );
    const where = 'errorsFile' in list ? 'in the errors file' : 'in the list the next line names';
    for (const line of this.rest.closingLines('problems', {
      toTerminal: this.context.io.isStderrTTY,
      lead,
      listedIn: where,
    }))
      warn(line);
    warn(`${lead}${everyProblemListed(list)}`);
  }
}

/** The last line of the summary: the errors file, or the validate command that lists every problem of the file. */
function everyProblemListed(list: ProblemList): string {
  if ('errorsFile' in list) return `every invalid record is in the errors file ${list.errorsFile}, with why`;
  if (list.listing === undefined)
    return 'every invalid record, with why, is in the errors file of a run with --skip-invalid (which sends the valid ones)';
  return `every problem is listed by ${listingCommandLine(list.listing, list.file, list.flags)}`;
}

/**
 * `b2bctl stock validate FILE -o csv > problems.csv`, read with the run's input flags (`--map`, `--delimiter` …), so it
 * finds the problems the run found; quoted for the shell. Stdin is not kept: it lists them with the input piped again.
 */
export function listingCommandLine(listing: ListingCommand, file: string, flags: InputFlags): string {
  return validateCommandLine(listing, file, flags, ' -o csv > problems.csv');
}

/**
 * `b2bctl stock validate FILE`, read with the run's input flags, then `tail`; quoted for the shell. It prints every
 * warning of the file on stderr, as the run would have (advisoryLogger).
 */
export function validateCommandLine(listing: ListingCommand, file: string, flags: InputFlags, tail = ''): string {
  const words = ['b2bctl', ...listing.verb.split(' '), file, ...inputFlagWords(flags), ...(listing.flags ?? [])];
  const command = `${words.map(shellWord).join(' ')}${tail}`;
  return file === '-' ? `${command}, with the same input piped into it again` : command;
}

function inputFlagWords(flags: InputFlags): string[] {
  const words: string[] = [];
  if (flags.map !== undefined) words.push('--map', flags.map);
  // A tab is named: a tab between quotes reads as a space when the line is copied.
  if (flags.delimiter !== undefined) words.push('--delimiter', flags.delimiter === '\t' ? 'tab' : flags.delimiter);
  if (flags.encoding !== undefined) words.push('--encoding', flags.encoding);
  if (flags.decimal !== undefined) words.push('--decimal', flags.decimal);
  if (flags.sheet !== undefined) words.push('--sheet', flags.sheet);
  if (flags.strict) words.push('--strict');
  for (const column of flags.ignoreColumns ?? []) words.push('--ignore-column', column);
  return words;
}
