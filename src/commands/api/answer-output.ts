import { once } from 'node:events';
import { STATUS_CODES } from 'node:http';
import { type Context, type OutputFormat, stdoutStyle } from '../../context.js';
import { B2bctlError, ExitCode, UsageError } from '../../base/errors.js';
import { createRecordWriter, type RecordLayout, type RecordWriter } from '../../io/output/record-writer.js';
import { cellText } from '../../io/output/csv-format.js';
import { hiddenColumnsNote, terminalColumns } from '../../io/output/table.js';
import { wordWrap } from '../../lib/word-wrap.js';
import { parseJsonKeepingNumbers } from '../../lib/written-json.js';
import { readListingPageStrictly } from '../../platform/answers/listing.js';
import { encodedSlashRefusal, heldSlashAdvice } from '../../platform/encoded-slash.js';
import type { HttpResponse } from '../../platform/http-client.js';
import { redactSecrets, redactUrl } from '../../platform/redact.js';
import { isRedirect, redirectWords } from '../../platform/redirect.js';

/** Writes text to a stream, waiting when its buffer is full (a slow reader such as `less`). */
export async function writeText(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text !== '' && !stream.write(text)) await once(stream, 'drain');
}

/** `-i`: the status line and the headers, as curl -i and gh api -i print them. */
export function statusAndHeaders(response: HttpResponse): string {
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${item}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** The body as the platform sent it, or indented when a person reads it on a terminal. */
export function bodyText(text: string, forTerminal: boolean): string {
  if (!forTerminal || text.trim() === '') return text;
  try {
    return `${JSON.stringify(parseJsonKeepingNumbers(text), null, 2)}\n`;
  } catch {
    return text.endsWith('\n') ? text : `${text}\n`;
  }
}

/**
 * A 4xx or 5xx: its body on stderr, and exit 1 with one line. `mayHaveBeenApplied` for a write answered 502, 503 or 504,
 * which was not repeated: the line says to check before sending it again. `branch` is the --branch (or setting) that
 * filled {branch}: a server in front of the platform refusing the "/" it held, encoded, is said so, with what to do.
 */
export async function refuseAnswer(
  answer: HttpResponse,
  method: string,
  context: Context,
  mayHaveBeenApplied = false,
  branch?: string,
): Promise<never> {
  // On stderr the body is b2bctl's message, not the user's data: an answer quoting the request (`invalid header
  // Bearer …`) shows its token and secrets masked, as every other command's error does.
  const response = { ...answer, text: redactSecrets(answer.text, answer.requestSecrets ?? []) };
  await writeBodyToStderr(response, method, context);
  const slashRefusal = branch?.includes('/') ? branchSlashRefusal(response, method, branch) : undefined;
  if (slashRefusal) throw slashRefusal;
  const moved = isRedirect(response.status) ? ` (${redirectWords(response, true)})` : '';
  const applied = mayHaveBeenApplied
    ? ', which may come after the platform applied the request: check whether it did before sending it again'
    : '';
  throw new B2bctlError(
    `${method} ${redactUrl(response.url)} answered HTTP ${response.status}${moved}${applied}.`,
    ExitCode.someRecordsFailed,
  );
}

/**
 * The refusal of the encoded "/" of a branch code b2bctl put in the path, when the answer reads as one (a path the
 * user wrote `%2F` in is their own text: its answer is shown as it came, the page saying what refused it).
 */
function branchSlashRefusal(response: HttpResponse, method: string, branch: string) {
  const url = redactUrl(response.url);
  const contentType = [response.headers['content-type']].flat()[0];
  const answer = { status: response.status, text: response.text, contentType, body: jsonIn(response.text)?.value };
  const advice = heldSlashAdvice(`the branch code "${branch}" (--branch or the branch setting)`);
  return encodedSlashRefusal(answer, { method, url, path: new URL(response.url).pathname }, advice);
}

/** An answer's body on stderr, where it cannot be read as the data: as it came, or in one log object. */
async function writeBodyToStderr(response: HttpResponse, method: string, context: Context): Promise<void> {
  // --log-format json promises one object a line on stderr: the body (an HTML page has many lines) goes in one.
  if (context.globals.logFormat === 'json')
    context.log.error(`${method} ${redactUrl(response.url)} answered with this body`, { body: response.text });
  else {
    await writeText(context.io.stderr, bodyText(response.text, context.io.isStderrTTY));
    if (response.text !== '' && !response.text.endsWith('\n') && !context.io.isStderrTTY)
      await writeText(context.io.stderr, '\n');
  }
}

/**
 * One answer of a plain `b2bctl api`: `-o` turns a list into rows; any other JSON is printed as sent; a body that is
 * not JSON is refused (see refuseNonJson). Without `-o`, every body is printed as sent, as gh api does.
 */
export async function writeAnswerBody(
  response: HttpResponse,
  format: OutputFormat | undefined,
  method: string,
  context: Context,
) {
  if (format !== undefined && response.text.trim() !== '') {
    const json = jsonIn(response.text);
    if (json === undefined) return await refuseNonJson(response, format, method, context);
    const items = readListingPageStrictly(json.value);
    // Rows need objects: a list of texts or numbers is printed as sent (the request is done; an error would say
    // nothing was sent, and a retry would repeat a write).
    const rowless =
      (format === 'csv' || format === 'table') &&
      items?.some((item) => item === null || typeof item !== 'object' || Array.isArray(item));
    if (items && !rowless) {
      const writer = itemWriter(format, context);
      for (const item of items) await writer.write(item);
      await writer.end();
      return;
    }
    context.log.warn(
      rowless
        ? `warning: -o ${format} makes rows of objects; this list holds other values, so it is printed as sent.`
        : `warning: -o ${format} formats a list; this answer is not one, so it is printed as sent.`,
    );
    // As sent, but a line: a format asked for lines (`while read`, `wc -l`, ndjson), and the body may end without one.
    const text = bodyText(response.text, context.io.isStdoutTTY);
    await writeText(context.io.stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
    return;
  }
  await writeText(context.io.stdout, bodyText(response.text, context.io.isStdoutTTY));
}

function jsonIn(text: string): { value: unknown } | undefined {
  try {
    return { value: parseJsonKeepingNumbers(text) };
  } catch {
    return undefined;
  }
}

/**
 * `-o` asked for data in a format, and the answer is no JSON at all (text, a truncated body): on stdout it would break
 * the reader that format promises (`| jq`), so it goes to stderr, and exit 1, as `--paginate` refuses it. The line
 * says the request was answered, and for a write that it was done: a script must not send it again for this.
 */
async function refuseNonJson(
  response: HttpResponse,
  format: OutputFormat,
  method: string,
  context: Context,
): Promise<never> {
  await writeBodyToStderr(response, method, context);
  const done = method === 'GET' || method === 'HEAD' ? '' : ' (the request was done: do not send it again)';
  throw new B2bctlError(
    `${method} ${redactUrl(response.url)} answered HTTP ${response.status}${done} with a body that is not JSON, written above on stderr: -o ${format} formats JSON answers only (run without -o to have such a body on stdout as sent).`,
    ExitCode.someRecordsFailed,
  );
}

/**
 * Items in an output format; the table and CSV columns are the first item's fields. A table wider than the terminal
 * keeps its first columns and says which it left out: its rows would otherwise wrap, unreadable.
 */
export function itemWriter(format: OutputFormat, context: Context): RecordWriter<unknown> {
  let writer: RecordWriter<unknown> | undefined;
  let hidden: readonly string[] = [];
  const width = terminalColumns(context.io.stdout);
  const open = (first: unknown) =>
    createRecordWriter(format, context.io.stdout, layoutOf(first, format), {
      ...stdoutStyle(context),
      maxWidth: width,
      onHiddenColumns: (headers) => (hidden = headers),
    });
  return {
    async write(item) {
      writer ??= open(item);
      await writer.write(item);
    },
    async end() {
      writer ??= open({});
      const count = await writer.end();
      if (hidden.length > 0) {
        // Prose: wrapped at spaces to the terminal's width, not cut mid-word by the terminal.
        for (const line of wordWrap(hiddenColumnsNote(hidden, width, '-o json'), terminalColumns(context.io.stderr)))
          context.log.info(line);
      }
      return count;
    },
    async abandon() {
      await writer?.abandon();
    },
  };
}

function layoutOf(first: unknown, format: OutputFormat): RecordLayout<unknown> {
  const isObject = first !== null && typeof first === 'object' && !Array.isArray(first);
  if (!isObject && (format === 'csv' || format === 'table'))
    throw new UsageError(`-o ${format} needs a list of objects; use -o json or -o ndjson for this list.`);
  const keys = isObject ? Object.keys(first) : [];
  return {
    csv: keys,
    table: keys.map((key, index) => ({
      header: key.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase(),
      value: (record: unknown) => cellText((record as Record<string, unknown>)[key]),
      // The last fields go first when the table is too wide; the first one (an id, most often) stays.
      ...(index > 0 ? { dropRank: index } : {}),
    })),
  };
}
