import { once } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type { Context, OutputFormat } from '../../context.js';
import { B2bctlError, ExitCode } from '../../base/errors.js';
import { quotedAnswer } from '../../base/quoted-answer.js';
import { printable } from '../../lib/printable.js';
import { itemWriter } from './item-writer.js';
import { JsonNestedTooDeep, parseJsonKeepingDigits } from '../../lib/written-json.js';
import { readListingPageStrictly } from '../../platform/answers/listing.js';
import { encodedSlashRefusal, heldSlashAdvice } from '../../platform/encoded-slash.js';
import type { HttpResponse } from '../../platform/http-client.js';
import { redactSecrets, shownUrl } from '../../platform/redact.js';
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
    return `${JSON.stringify(parseJsonKeepingDigits(text), null, 2)}\n`;
  } catch {
    return text.endsWith('\n') ? text : `${text}\n`;
  }
}

/**
 * A 4xx or 5xx: its body on stderr, and exit 1 with one line. `mayHaveBeenApplied` for a write answered any 5xx (a
 * 502, 503 or 504 not repeated, a 500, a 507) or a redirect: the line says to check before sending it again. `branch` is the --branch (or setting) that
 * filled {branch}: a server in front of the platform refusing the "/" it held, encoded, is said so, with what to do.
 */
export async function refuseAnswer(
  answer: HttpResponse,
  method: string,
  context: Context,
  mayHaveBeenApplied = false,
  branch?: string,
): Promise<never> {
  const response = maskedResponse(answer);
  writeBodyToStderr(response, method, context);
  const slashRefusal = branch?.includes('/') ? branchSlashRefusal(response, method, branch) : undefined;
  if (slashRefusal) throw slashRefusal;
  const moved = isRedirect(response.status) ? ` (${redirectWords(response, true)})` : '';
  const applied = mayHaveBeenApplied
    ? ', which may come after the platform applied the request: check whether it did before sending it again'
    : '';
  throw new B2bctlError(
    `${method} ${shownUrl(response)} answered HTTP ${response.status}${moved}${applied}.`,
    ExitCode.someRecordsFailed,
  );
}

/**
 * The refusal of the encoded "/" of a branch code b2bctl put in the path, when the answer reads as one (a path the
 * user wrote `%2F` in is their own text: its answer is shown as it came, the page saying what refused it).
 */
function branchSlashRefusal(response: HttpResponse, method: string, branch: string) {
  const url = shownUrl(response);
  const contentType = [response.headers['content-type']].flat()[0];
  const json = jsonIn(response.text);
  const answer = {
    status: response.status,
    text: response.text,
    contentType,
    body: typeof json === 'object' ? json.value : undefined,
  };
  const advice = heldSlashAdvice(`the branch code "${branch}" (--branch or the branch setting)`);
  return encodedSlashRefusal(answer, { method, url, path: new URL(response.url).pathname }, advice);
}

/**
 * The answer as stderr quotes it, whatever its status: on stderr the body is b2bctl's message, not the user's data,
 * and an answer quoting the request (`invalid header Bearer …`, a path's `?api_key=`, a 200 text `your token … is
 * fine`) shows its token and secrets masked, as every other command's quote does. A 2xx that is not JSON, quoted
 * for `-o json`, was in clear (a user test). Stdout keeps the body as sent: there it is the data asked for.
 */
function maskedResponse(answer: HttpResponse): HttpResponse {
  return { ...answer, text: redactSecrets(answer.text, answer.requestSecrets ?? []) };
}

/** How much of an answer's body the line on stderr quotes: a refusal's words, not a whole page of HTML. */
const longestBodyQuoted = 2000;

/**
 * An answer's body on stderr, where it cannot be read as the data: a log line as every other command's quote of an
 * answer is (a user test), or one log object. Written raw, a body's control sequences reached the terminal (an answer
 * cleared the screen and printed a green "synced OK" above the error) and a cron log got its lines unbounded and
 * without the time stamp. On one line, its control characters made spaces (`\u{…}` for an invisible or bidi one),
 * an HTML page shown as its title and text, cut at longestBodyQuoted characters; empty, it says so. `response` comes
 * masked (maskedResponse).
 */
function writeBodyToStderr(response: HttpResponse, method: string, context: Context): void {
  const answered = `${method} ${shownUrl(response)} answered with this body`;
  // --log-format json promises one object a line on stderr: the body (an HTML page has many lines) goes in one.
  if (context.globals.logFormat === 'json') context.log.error(answered, { body: response.text });
  else if (response.text.trim() === '') context.log.notice(`${method} ${shownUrl(response)} answered no body.`);
  else context.log.notice(`${answered}: ${printable(quotedAnswer(response.text, longestBodyQuoted))}`);
}

/**
 * One answer of a plain `b2bctl api`: `-o` turns a list into rows (a record into one row of CSV or table, one line of
 * NDJSON); JSON is written as JSON; a body that is not JSON is refused (see refuseNonJson). Without `-o`, every body
 * is printed as sent, as gh api does.
 */
export async function writeAnswerBody(
  response: HttpResponse,
  format: OutputFormat | undefined,
  method: string,
  context: Context,
) {
  if (format === undefined || response.text.trim() === '')
    return await writeText(context.io.stdout, bodyText(response.text, context.io.isStdoutTTY));
  const json = jsonIn(response.text);
  // Formatted, it failed with the engine's stack error after a CSV header was written (a user test): said before writing.
  if (json === 'too deep')
    throw new B2bctlError(
      `${method} ${shownUrl(response)} answered HTTP ${response.status} with a body ${new JsonNestedTooDeep().message}: -o ${format} cannot format it (run without -o to have it on stdout as sent).`,
      ExitCode.someRecordsFailed,
    );
  if (json === undefined) return await refuseNonJson(response, format, method, context);
  // `null` is no list (a route answering `null` for "none" is not `[]`): written as sent (a user test).
  const items = json.value === null ? undefined : readListingPageStrictly(json.value);
  // Rows need objects: a list of texts or numbers is printed as sent (the request is done; an error would say
  // nothing was sent, and a retry would repeat a write).
  const rowless =
    (format === 'csv' || format === 'table') &&
    items?.some((item) => item === null || typeof item !== 'object' || Array.isArray(item));
  if (items && !rowless) return await writeItems(items, format, context);
  // An answer that is no list is JSON already: -o json has nothing to add, nor to warn of.
  if (format === 'json') return await writeAsSent(response, context);
  // NDJSON is one compact value a line (a line reader broke on an indented record's many lines); CSV and table make
  // a record one row, as the AWS CLI's table does, so `-o csv > x.csv` never holds JSON with exit 0: its lists and
  // objects are JSON in their cells.
  const record = !Array.isArray(json.value) && json.value !== null && typeof json.value === 'object';
  if (format === 'ndjson') {
    context.log.warn('warning: -o ndjson formats a list; this answer is not one, so it is written as one line.');
    return await writeText(context.io.stdout, `${JSON.stringify(json.value)}\n`);
  }
  if (record && !rowless) {
    context.log.warn(`warning: -o ${format} formats a list; this answer is one record, so it is written as one row.`);
    return await writeItems([json.value], format, context);
  }
  context.log.warn(
    rowless
      ? `warning: -o ${format} makes rows of objects; this list holds other values, so it is printed as sent.`
      : `warning: -o ${format} makes rows of objects; this answer is none, so it is printed as sent.`,
  );
  await writeAsSent(response, context);
}

async function writeItems(items: readonly unknown[], format: OutputFormat, context: Context): Promise<void> {
  // The page is in memory: its columns are every item's fields.
  const writer = itemWriter(format, context);
  await writer.writePage(items);
  await writer.end();
}

/** As sent, but a line: a format asked for lines (`while read`, `wc -l`), and the body may end without one. */
async function writeAsSent(response: HttpResponse, context: Context): Promise<void> {
  const text = bodyText(response.text, context.io.isStdoutTTY);
  await writeText(context.io.stdout, text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

/** The answer's JSON; undefined when it is none (or nested too deep to read: writeAnswerBody says so first). */
function jsonIn(text: string): { value: unknown } | 'too deep' | undefined {
  try {
    return { value: parseJsonKeepingDigits(text) };
  } catch (error) {
    return error instanceof JsonNestedTooDeep ? 'too deep' : undefined;
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
  writeBodyToStderr(maskedResponse(response), method, context);
  const done = method === 'GET' || method === 'HEAD' ? '' : ' (the request was done: do not send it again)';
  throw new B2bctlError(
    `${method} ${shownUrl(response)} answered HTTP ${response.status}${done} with a body that is not JSON, quoted above on stderr: -o ${format} formats JSON answers only (run without -o to have such a body on stdout as sent).`,
    ExitCode.someRecordsFailed,
  );
}
