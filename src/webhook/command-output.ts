import { redactSecrets } from '../lib/secret-values.js';

/** Lines of an `--exec` command's output kept per run: enough to say why it failed, bounded whatever it prints. */
const keptLines = 10;
/** Characters kept of one line: a command that dumps the event on one line does not flood the log. */
const lineLength = 300;
/** The last lines that go into a failure's message (its one line in the log, and the dead letter's error). */
const linesInFailure = 3;

/**
 * What a command run printed (stdout and stderr, in the order they came), kept as its last lines, so that the
 * receiver logs it in its own format, tied to the event, instead of the raw bytes breaking `--log-format json`.
 * The `secrets` the command was given are masked in the lines together (secret-values.ts), before each is cut to
 * length: a secret the output wrapped over two lines is one mask, and no piece of one is left at a cut.
 */
export class CommandOutput {
  private lines: string[] = [];
  private partial = '';
  private dropped = 0;

  private readonly secrets: readonly string[];
  constructor(secrets: readonly string[] = []) {
    this.secrets = secrets;
  }

  add(chunk: Buffer | string): void {
    const pieces = (this.partial + chunk.toString()).split(/\r?\n/);
    this.partial = (pieces.pop() ?? '').slice(0, lineLength * 4);
    for (const piece of pieces) this.keep(piece);
  }

  /** The kept lines, masked and cut to length, the last unfinished one included; `dropped` earlier ones were not kept. */
  finish(): { lines: string[]; dropped: number } {
    if (this.partial !== '') this.keep(this.partial);
    this.partial = '';
    // Masked across the line breaks: a secret the command's output wrapped over two lines (a folded log, a body
    // printed at a width) is whole in neither, and the failure's message joins them (a user test). Masked line by
    // line first, each half would be a mask of its own (a run of 8 characters of a secret is masked too).
    const lines = redactSecrets(this.lines.join('\n'), this.secrets)
      .split('\n')
      .map((shown) => (shown.length > lineLength ? `${shown.slice(0, lineLength)}…` : shown));
    return { lines, dropped: this.dropped };
  }

  private keep(line: string): void {
    // Control characters (a progress bar's \r, colours) would break the receiver's one line.
    const printed = line.replace(/\p{Cc}/gu, ' ').trimEnd();
    if (printed === '') return;
    // As printed, up to as much as an unfinished line keeps: masked and cut to lineLength when finished.
    this.lines.push(printed.slice(0, lineLength * 4));
    if (this.lines.length > keptLines) {
      this.lines.shift();
      this.dropped++;
    }
  }
}

/** A failure's reason with what the command said last: `exit code 65: bad record: CNPJ invalid`. */
export function failureWithOutput(reason: string, lines: readonly string[]): string {
  const last = lines.slice(-linesInFailure);
  return last.length === 0 ? reason : `${reason}: ${last.join(' | ')}`;
}
