import { isUtf8 } from 'node:buffer';
import type { Context } from '../../context.js';
import { B2bctlError, ExitCode, InputError, UsageError } from '../../base/errors.js';
import { Pacer } from '../../platform/pacer.js';
import { refuseAnswer, statusAndHeaders, writeAnswerBody, writeText } from './answer-output.js';
import { itemWriter } from './item-writer.js';
import { listingPages, pagingPlan } from './paginate.js';
import { planRequest, type PlannedRequest, type RequestFlags } from './request-plan.js';
import { proxyPageOf } from '../../platform/answers/shapes.js';
import { isRedirect } from '../../platform/redirect.js';
import { namedList } from '../../lib/plural.js';
import { AmbiguousAnswerError, UnreadableWriteAnswerError } from '../../platform/http-client.js';
import { NamedFileRefusal, readFileOrPipe } from '../../lib/named-file.js';

export interface ApiOptions extends RequestFlags {
  /** -i: the status line and headers before the body. */
  include: boolean;
  paginate: boolean;
  pageSize?: number;
  /** With --paginate: one JSON array instead of one item per line. */
  slurp: boolean;
  rate?: number;
  retries?: number;
  timeoutMs?: number;
}

/** `b2bctl api`: any route with the profile's token, retries and pacing; the answer as the platform sent it. */
export async function run(options: ApiOptions, context: Context): Promise<void> {
  const session = await context.session();
  const texts = await readSources(options, context);
  const request = planRequest(options, session.get('branch'), (source) => texts.get(source) ?? '', context.log.warn);
  if (options.paginate && request.method !== 'GET')
    throw new UsageError(
      options.method === undefined
        ? options.input === undefined
          ? '--paginate reads listings with GET, and fields (-f, -F) make the request a POST; add -X GET to send them as the query, or drop --paginate.'
          : '--paginate reads listings with GET, and --input makes the request a POST; drop --input or --paginate.'
        : `--paginate reads listings with GET; drop -X ${request.method} or --paginate.`,
    );
  const pace = options.rate === undefined ? undefined : new Pacer(context.clock, options.rate);
  // api takes --timeout: a time-out's advice names it.
  const client = await context.platform({
    pace,
    retries: options.retries,
    timeoutMs: options.timeoutMs,
    timeoutFlag: true,
  });
  const refuse = (response: Parameters<typeof refuseAnswer>[0]) =>
    refuseAnswer(response, request.method, context, false, request.branch);
  if (options.paginate) return paginate(options, request, context, refuse, client);
  let response: Awaited<ReturnType<typeof client.exchange>>;
  try {
    response = await client.exchange(request);
  } catch (error) {
    // A write answered 2xx whose body cannot be read was done, as its status says: not "unavailable" (exit 69, which
    // a cron wrapper retries on, sending the write twice: a user test), but the 2xx that fits no format (docs/api.md).
    if (error instanceof UnreadableWriteAnswerError && error.status !== undefined && error.status < 300)
      throw new B2bctlError(
        `${error.target} answered HTTP ${error.status} (the request was done: do not send it again) ${error.why}.`,
        ExitCode.someRecordsFailed,
      );
    // A write answered 502 or 504 is not repeated (it may have been applied); its answer is shown as any other.
    if (!(error instanceof AmbiguousAnswerError)) throw error;
    if (options.include) await writeText(context.io.stdout, statusAndHeaders(error.response));
    return await refuseAnswer(error.response, request.method, context, true, request.branch);
  }
  if (options.include) await writeText(context.io.stdout, statusAndHeaders(response));
  // A redirect is not followed (it would take the token to another place): it is no answer to print as done. A write
  // it answered went out whole, and may have been applied before it (a 303 says it was): the line says to check.
  if (isRedirect(response.status) && !['GET', 'HEAD'].includes(request.method))
    return await refuseAnswer(response, request.method, context, true);
  // Any 5xx to a write may come after the platform applied it (docs/platform.md), a 500 or a 507 as a 502 may: the
  // line says to check before sending it again (a user test: "answered HTTP 500." read as a refusal, and retried).
  if (response.status >= 500 && !['GET', 'HEAD'].includes(request.method))
    return await refuseAnswer(response, request.method, context, true, request.branch);
  if (response.status >= 300) await refuse(response);
  // A captive portal's or proxy's login page with a 200 is no answer of the platform, whatever -o asked for.
  const proxyPage = proxyPageOf(request, response);
  if (proxyPage) throw proxyPage;
  // --excel alone asks for its CSV, as of every listing command.
  const format = context.globals.output ?? (context.globals.excel ? 'csv' : undefined);
  await writeAnswerBody(response, format, request.method, context);
}

async function paginate(
  options: ApiOptions,
  request: PlannedRequest,
  context: Context,
  refuse: Parameters<typeof listingPages>[3],
  client: Parameters<typeof listingPages>[0],
): Promise<void> {
  // --slurp is one JSON array: with rows (-o csv, ndjson, table) it was dropped unsaid (a user test).
  const asked = context.globals.output ?? (context.globals.excel ? 'csv' : undefined);
  if (options.slurp && asked !== undefined && asked !== 'json')
    throw new UsageError(`--slurp writes one JSON array of every item, and -o ${asked} writes rows; drop one of them.`);
  const session = await context.session();
  const paging = pagingPlan(request, options.pageSize, session, (line) => context.log.warn(line));
  const format = context.globals.output ?? (context.globals.excel ? 'csv' : options.slurp ? 'json' : 'ndjson');
  const writer = itemWriter(format, context);
  let count = 0;
  let failed = true;
  try {
    for await (const page of listingPages(client, request, paging, refuse, (line) => context.log.warn(line))) {
      // One line per item, a page in one write: the stream's buffers stay few on a listing of millions.
      if (format === 'ndjson')
        await writeText(context.io.stdout, page.map((item) => `${JSON.stringify(item)}\n`).join(''));
      // A page at a time: the first page, held in memory, gives the CSV its columns.
      else await writer.writePage(page);
      count += page.length;
    }
    failed = false;
  } finally {
    // A listing refused before its first item leaves its answer's body alone on stdout: an empty array after it
    // would read as "no items" to the next program. Items already out are closed into a whole array or table.
    if (format !== 'ndjson' && !(failed && count === 0)) await writer.end();
  }
  context.log.debug(`${count} item${count === 1 ? '' : 's'} from ${paging.route?.title ?? request.path}.`);
}

/** The texts of `--input` and of `-F key=@file`, read before anything is sent (`-` is stdin, read once). */
async function readSources(options: ApiOptions, context: Context): Promise<Map<string, string>> {
  const sources = new Set<string>();
  // Who named stdin, for the refusal: it can be read once, and a second reader would get the first one's text.
  const stdinNamers: string[] = [];
  if (options.input !== undefined) sources.add(options.input);
  if (options.input === '-') stdinNamers.push('--input -');
  for (const field of options.fields) {
    const value = field.text.slice(field.text.indexOf('=') + 1);
    if (!field.typed || !field.text.includes('=') || !value.startsWith('@')) continue;
    sources.add(value.slice(1));
    if (value === '@-') stdinNamers.push(`-F ${field.text}`);
  }
  // gh api refuses it too: sent twice, the same text went both into the body and into the query string (where
  // proxies and access logs keep it), a request the script never wrote.
  if (stdinNamers.length > 1)
    throw new UsageError(
      `${namedList(stdinNamers)} ${stdinNamers.length === 2 ? 'both' : 'all'} name stdin, which can be read once; save it to a file and name that file where it belongs. Nothing was sent.`,
    );
  const texts = new Map<string, string>();
  for (const source of sources) texts.set(source, await readSource(source, context));
  return texts;
}

async function readSource(source: string, context: Context): Promise<string> {
  let bytes: Buffer;
  if (source === '-') {
    if (context.io.isStdinTTY) throw new UsageError('"-" reads the body from stdin, which is a terminal: pipe it in.');
    // Decoded whole, not chunk by chunk: a character whose bytes fall across two chunks would become U+FFFD.
    const chunks: Buffer[] = [];
    for await (const chunk of context.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    bytes = Buffer.concat(chunks);
  } else {
    try {
      bytes = await readFileOrPipe(source);
    } catch (error) {
      // A refusal says its own fix; a system error's code leaves the path to check.
      const why =
        error instanceof NamedFileRefusal
          ? `(${error.message})`
          : `(${(error as { code?: string }).code ?? String(error)}); check the path`;
      throw new InputError(`${source}: cannot read it ${why}.`, {
        file: source,
        missing: true,
      });
    }
  }
  // Sent as UTF-8 text: bytes that are not (Latin-1, a gzip, an image) would go with U+FFFD in their place.
  if (!isUtf8(bytes))
    throw new InputError(
      `${source === '-' ? 'stdin' : source}: not UTF-8 text, which b2bctl api sends as it is; nothing was sent. Convert it first (iconv -f ISO-8859-1 -t UTF-8).`,
      { file: source },
    );
  return bytes.toString('utf8');
}
