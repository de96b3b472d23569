import { type Context, type OutputFormat, stdoutStyle } from '../../context.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import { hiddenColumnsNote, terminalColumns } from '../../io/output/table.js';
import { countOf } from '../../lib/plural.js';
import { forgottenRecordsLine, WrittenRecordKeys } from '../../lib/written-record-keys.js';
import { wordWrap } from '../../lib/word-wrap.js';
import { permissionCodes, permissionFlags, permissionSummary, type SalesRep } from '../../domain/sales-rep.js';
import { ExitCode, PlatformError, UnavailableError } from '../../base/errors.js';
import type { PlatformClient } from '../../platform/client.js';
import { listAllSellers, listSellers, type SellerPage } from '../../platform/sellers.js';
import { EmailFilter } from './email-filter.js';

export interface ListSellersOptions {
  email?: string;
  limit?: number;
  offset?: number;
  all: boolean;
}

/** The page size of one page without --limit, sent as `limit` (docs/platform.md: "limit defaults to 20"). */
const defaultPageSize = 20;

/** Page size of --all without --limit: the listing has no ceiling, so few large pages mean few requests. */
export const allPagesPageSize = 500;

/**
 * A rep's field as a table cell. The platform's reps are typed by its document, not by what it sends: a rep listed
 * without a document or with a number for it is still shown (blank, or the number), never a crash of the table.
 */
function cellOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

export const salesRepLayout: RecordLayout<SalesRep> = {
  table: [
    // Planned widths: which columns a terminal shows depends on its width, never on the page's data.
    { header: 'EMAIL', value: (rep) => cellOf(rep.username), plannedWidth: 28 },
    { header: 'DOCUMENT', value: (rep) => cellOf(rep.document), keepWhole: true, plannedWidth: 18 },
    { header: 'CODE', value: (rep) => cellOf(rep.attendantCode) || '-', dropRank: 2, plannedWidth: 8 },
    { header: 'PROFILE', value: (rep) => cellOf(rep.profile?.name) || '-', dropRank: 1, plannedWidth: 16 },
    { header: 'RESTRICTED', value: (rep) => (rep.restrictedCustomers ? 'yes' : 'no'), dropRank: 3, plannedWidth: 10 },
    { header: 'PERMISSIONS', value: permissionSummary, plannedWidth: 11 },
  ],
  csv: [
    'id',
    'username',
    'document',
    ...permissionFlags,
    'attendantCode',
    'allowedSellersId',
    'profile.id',
    'profile.code',
    'profile.name',
    'createdAt',
    'updatedAt',
  ],
};

/**
 * The table when searching by e-mail: the column searched is kept whole (the other columns' cells are cut to make
 * room, and it is cut only when they leave it too little), and PERMISSIONS goes last of the droppable ones, so on a
 * narrow terminal the person still sees the e-mails their filter matched. Its planned width stays that of the plain
 * table: which columns show depends on the width alone, not on how long the e-mails found are.
 */
const searchedByEmailLayout: RecordLayout<SalesRep> = {
  ...salesRepLayout,
  table: salesRepLayout.table.map((column) =>
    column.header === 'EMAIL'
      ? { ...column, keepWhole: true }
      : column.header === 'PERMISSIONS'
        ? { ...column, dropRank: 0 }
        : column,
  ),
};

/** The note of an empty answer: nothing matched, or nothing past the offset. */
function noneFound(options: ListSellersOptions): string {
  return `No sales reps found${options.email ? ` with an e-mail containing "${options.email}"` : ''}${options.offset ? ` from offset ${options.offset}` : ''}.`;
}

/**
 * Each rep once, by its id: the listing is paged by offset in no stated order, so a rep added or removed between two
 * pages shifts them and the next page starts with a rep already written (an ERP importing the export gets it twice).
 * A rep is skipped only when an earlier page wrote the same rep (its id and its whole record): two reps of one
 * answer are both written (no shift puts a rep twice in one answer), and so is a rep whose id came with another
 * record (updated meanwhile, or another rep sharing the id): one would be lost with exit 0 (a user test).
 * A key of every rep written is remembered (WrittenRecordKeys: about 53 bytes a rep), so a shift of any length is
 * caught, not only one within the last pages (a user test). A rep without an id cannot be told apart and is kept;
 * `skipped.repeats` says how many were dropped, `skipped.notReps` how many entries were no rep at all.
 */
async function* onceById(pages: AsyncIterable<SellerPage>, skipped: SkippedEntries): AsyncGenerator<SalesRep> {
  const written = new WrittenRecordKeys();
  for await (const page of pages) {
    skipped.notReps += page.notReps;
    const fresh = written.unwritten(page.reps, (rep) => {
      const id: unknown = rep.id;
      return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
    });
    skipped.repeats += page.reps.length - fresh.length;
    yield* fresh;
  }
  if (written.forgotten > 0) skipped.endLines.push(forgottenRecordsLine(written, 'sales reps'));
}

/** Lists sales reps: one page, or with --all every page until the platform answers `[]`. */
export async function run(options: ListSellersOptions, context: Context): Promise<void> {
  const client = await context.platform();
  const format = context.outputFormat('json');
  let hiddenColumns: readonly string[] = [];
  const layout = options.email ? searchedByEmailLayout : salesRepLayout;
  const writer = createRecordWriter(format, context.io.stdout, layout, {
    ...stdoutStyle(context),
    // A row wider than the terminal wraps and the table is unreadable: fit it (a pipe keeps every column).
    maxWidth: terminalColumns(context.io.stdout),
    onHiddenColumns: (headers) => (hiddenColumns = headers),
  });
  const skipped: SkippedEntries = { repeats: 0, notReps: 0, endLines: [] };
  // The page size assumed is sent, not left to the store: a store whose default page is 50 answered 50 reps to no
  // `limit`, and the full page was told as the whole listing (a user test).
  const pageSize = options.limit ?? defaultPageSize;
  const onePage = options.all
    ? undefined
    : await listSellers(client, { email: options.email, limit: pageSize, offset: options.offset });
  if (onePage) skipped.notReps = onePage.notReps;
  const reps = !onePage
    ? onceById(
        listAllSellers(
          client,
          { email: options.email, pageSize: options.limit ?? allPagesPageSize, offset: options.offset },
          (line) => skipped.endLines.push(line),
        ),
        skipped,
      )
    : onePage.reps;
  // The e-mail filter is checked here too: a platform that ignores it would hand a script looking a rep up another's.
  const filter = new EmailFilter(options.email);
  try {
    for await (const rep of reps) if (filter.keeps(rep)) await writer.write(rep);
  } catch (error) {
    // A page failed (or Ctrl-C) after others were written: stdout stays valid JSON, the exit code says the rest.
    await writer.abandon();
    throw error;
  }
  const count = await writer.end();
  warnSkipped(skipped, context, client.route('paths.sellers'));
  // One page says nothing of the store's total: "20 sales reps" read as "the store has 20". A page shorter than the
  // limit sent may be a store's cap (10 of 45 told as "10 sales reps.": a user test), and one longer a store ignoring
  // the limit: only an empty page ends the listing (docs/api.md), so a page of reps is the last only once the next
  // is asked and found empty. It is asked only when a line printed depends on it: each request costs the rate limit.
  let pageAfter: Promise<boolean> | undefined;
  const pagesMayFollow = (): Promise<boolean> =>
    (pageAfter ??=
      onePage === undefined || onePage.listed === 0
        ? Promise.resolve(false)
        : listingEndsAfterShortPage(client, context, { ...options, limit: pageSize }, onePage).then((ends) => !ends));
  const pagesLeft = filter.warningsTellPagesLeft() && (await pagesMayFollow());
  for (const line of filter.warnings({ pagesLeft })) context.log.warn(line);
  // Reps left out of a page: the warning said --all already, and "First 2 sales reps" of 20 listed misleads.
  const footerPagesMayFollow = async () => filter.otherEmail === 0 && (await pagesMayFollow());
  await sayCount(options, context, format, { count, pagesMayFollow: footerPagesMayFollow, hiddenColumns });
}

/**
 * What the listing held that was not written: reps answered again, and entries that were no rep; and the line that
 * said how the listing ended when it was not an empty page (said after the listing, with the others).
 */
interface SkippedEntries {
  repeats: number;
  notReps: number;
  endLines: string[];
}

/** One warning per kind of entry left out, after the listing (stdout stays the reps read). */
function warnSkipped(skipped: SkippedEntries, context: Context, route: string): void {
  for (const line of skipped.endLines) context.log.warn(line);
  if (skipped.repeats > 0)
    context.log.warn(
      `warning: the sales rep listing changed while it was read (${countOf(skipped.repeats, 'sales reps')} seen twice, each written once): a rep added or removed meanwhile may be missing; run it again for a settled list.`,
    );
  // A `null` or a bare string where a rep belongs has nothing to show: left out and counted, as orders poll does.
  if (skipped.notReps > 0)
    context.log.warn(
      `warning: ${countOf(skipped.notReps, 'listed entries')} ${skipped.notReps === 1 ? 'was' : 'were'} no sales rep (null, or not a JSON object) and ${skipped.notReps === 1 ? 'was' : 'were'} left out; b2bctl api ${route} shows the answer as it came.`,
    );
}

/**
 * Whether the listing ends after a page shorter than the limit sent: the next page (what --all would ask next) is
 * asked once, and only the documented end (`[]`) ends it. Told "First 2 sales reps; --all for every page." of a page
 * that was all there was, a user re-ran for nothing (a user test); a full page is not asked after. When the platform
 * cannot tell (unavailable, or it refuses or garbles the question) the note stays as it was (more may follow), said
 * with --verbose; a refused login or b2bctl's own fault ends the run as on any request.
 */
async function listingEndsAfterShortPage(
  client: PlatformClient,
  context: Context,
  asked: { email?: string; limit: number; offset?: number },
  page: SellerPage,
): Promise<boolean> {
  if (page.listed >= asked.limit) return false;
  try {
    const next = await listSellers(client, { ...asked, offset: (asked.offset ?? 0) + page.listed });
    return next.listed === 0 && next.noBodyStatus === undefined;
  } catch (error) {
    if (!platformCouldNotTell(error)) throw error;
    context.log.debug(`the page after the short page could not be read, so more may follow: ${error.message}`);
    return false;
  }
}

/**
 * The platform's failures that leave open whether reps follow: unreachable or kept failing, or an answer that is an
 * error or no page. A 401 or 403 (exit 77) says the credentials are refused and is not hidden behind a footer.
 */
function platformCouldNotTell(error: unknown): error is UnavailableError | PlatformError {
  if (error instanceof UnavailableError) return true;
  return error instanceof PlatformError && error.exitCode !== ExitCode.authFailed;
}

/**
 * The notes on stderr after the listing: how many were written, and on a terminal what the table left out.
 * `pagesMayFollow` is called only for a note that depends on it (it may ask the platform).
 */
async function sayCount(
  options: ListSellersOptions,
  context: Context,
  format: OutputFormat,
  {
    count,
    pagesMayFollow,
    hiddenColumns,
  }: { count: number; pagesMayFollow: () => Promise<boolean>; hiddenColumns: readonly string[] },
): Promise<void> {
  const firstOnes = `${options.offset ? `${countOf(count, 'sales reps')} from offset ${options.offset}` : `First ${countOf(count, 'sales reps')}`}; --all for every page.`;
  if (format !== 'table' || !context.io.isStdoutTTY) {
    // Piped to jq, a page of the platform's passes for the whole store: said on stderr, so stdout stays the data. A
    // --limit is the reader's own paging, which needs no note.
    if (count > 0 && options.limit === undefined && (await pagesMayFollow())) context.log.info(firstOnes);
    else if (count === 0 && format === 'table') context.log.info(noneFound(options));
    return;
  }
  if (count === 0) context.log.info(noneFound(options));
  else {
    // A count with no "First" is the listing's own: --all read it to its end, or the page after it was empty.
    const counted = (await pagesMayFollow())
      ? firstOnes
      : `${countOf(count, 'sales reps')}${options.offset ? ` from offset ${options.offset}` : ''}.`;
    // Notes are prose: wrapped at spaces to the terminal's width, not cut mid-word by the terminal.
    const width = terminalColumns(context.io.stderr);
    const legend = `PERMISSIONS: ${permissionCodes.map(([, code, meaning]) => `${code} ${meaning}`).join(', ')}.`;
    const hidden =
      hiddenColumns.length === 0
        ? []
        : wordWrap(hiddenColumnsNote(hiddenColumns, terminalColumns(context.io.stdout), '-o csv or -o json'), width);
    // The legend explains the PERMISSIONS column: none when that column is hidden (a user test).
    const legendLines = hiddenColumns.includes('PERMISSIONS') ? [] : wordWrap(legend, width);
    for (const line of [...wordWrap(counted, width), ...hidden, ...legendLines]) context.log.info(line);
  }
}
