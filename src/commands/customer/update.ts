import { customerAdvisories } from '../../domain/customer.js';
import { type PendingRecord, type ReportEntry, runBulkJob } from '../../bulk/bulk-job.js';
import { type InputFlags, oneRequestTuning, type SendFlags } from '../../bulk/flags.js';
import { redactBody } from '../../platform/redact.js';
import { placeOf } from '../../bulk/report.js';
import { RecordChecker } from '../../bulk/validation-pass.js';
import type { Context } from '../../context.js';
import { type CustomerUpdateBody, customerFieldType, validateCustomerUpdate } from '../../domain/customer.js';
import { AmbiguousRequestError, InputError, PlatformError, UsageError } from '../../base/errors.js';
import { asClause } from '../../lib/clause.js';
import {
  customerFailureMessage,
  customerNotFound,
  doubtfulUpdate,
  explainedRefusal,
  mayHaveBeenAppliedError,
  refusedWrite,
} from './customer-failures.js';
import { typedValue, setPath } from '../../io/input/record-shape.js';
import { isSeparatorsOnly } from '../../io/input/cell-values.js';
import type { PlatformClient, PlatformResponse } from '../../platform/client.js';
import { type Customer, isUnknownDocument, updateCustomer } from '../../platform/customers.js';
import { readCustomerRecord } from '../../platform/answers/customers.js';
import { MayHaveBeenAppliedError } from '../../platform/applied-write.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { writeObject } from '../../io/output/write-object.js';
import { customerCatalogue, customerRecordKey, newCustomerChecker } from './customer-input.js';
import { NoStoredAddress, withKeptAddress } from './kept-address.js';

/** A file of partial updates keyed by document, or one customer's `--document` and its `--set FIELD=VALUE` pairs. */
export type CustomerUpdateTarget = { file: string } | { file?: undefined; document: string; set: string[] };
export type CustomerUpdateOptions = InputFlags & SendFlags & CustomerUpdateTarget;

/** Updates customers: every record of a file keyed by its document, or one customer with --document and --set. */
export async function run(options: CustomerUpdateOptions, context: Context): Promise<void> {
  // Which of the two, and never both, was settled by cli.ts.
  if (options.file !== undefined) return updateFromFile({ ...options, file: options.file }, context);
  return updateOne(options.document, options.set, options, context);
}

async function updateFromFile(options: CustomerUpdateOptions & { file: string }, context: Context): Promise<void> {
  await runBulkJob<CustomerUpdateBody>(
    {
      name: 'customer update',
      // One lock for the three: two runs writing one store's customers at once would each find the other's creates
      // "already registered" and report them failed.
      lockName: 'customers',
      unit: 'customers',
      file: options.file,
      flags: options,
      catalogue: customerCatalogue('update'),
      newChecker: () => newCustomerChecker<CustomerUpdateBody>('update'),
      advisories: (record) => customerAdvisories(record.values),
      keyOf: customerRecordKey,
      listedBy: { verb: 'customer validate', flags: ['--update'] },
      // The same fields written twice are the fields written once.
      resumeOfUnknown: 'sends again',
      outcomes: ['updated', 'unchanged', 'invalid', 'failed', 'unknown'],
      sentOutcomes: ['updated', 'unchanged'],
      plan: () => ({
        batchSize: 1,
        // The requests the summary counts beyond one a customer, said before they are made.
        description:
          'to PUT /v1/customer/:document; the stored record read first where a registration address is given in part',
      }),
      sendBatch: (client, batch, signal) => Promise.all(batch.map((entry) => updateEntry(client, entry, signal))),
    },
    context,
  );
}

/** One record of a file sent, and its report row: its address completed from the stored one where given in part. */
async function updateEntry(
  client: PlatformClient,
  entry: PendingRecord<CustomerUpdateBody>,
  signal: AbortSignal | undefined,
): Promise<ReportEntry> {
  const { document, ...changes } = entry.value;
  const row = { ...placeOf(entry), key: entry.key };
  let sent = changes;
  try {
    const kept = await withKeptAddress(client, String(document), changes, signal);
    sent = kept.body;
    const { status, body } = await updateCustomer(client, String(document), sent, signal);
    const doubt = doubtfulUpdate(status, body, String(document), sent);
    if (doubt !== undefined)
      return { row: { ...row, outcome: 'unknown', status, message: doubt }, original: entry.original };
    const outcome = Object.keys(changes).length === 0 ? 'unchanged' : 'updated';
    const message = kept.note === undefined ? {} : { message: kept.note };
    const id = shownId(readCustomerRecord(body)?.id);
    return { row: { ...row, outcome, status, id, ...message }, original: entry.original };
  } catch (error) {
    if (error instanceof NoStoredAddress)
      return { row: { ...row, outcome: 'invalid', message: `not sent: ${error.message}` }, original: entry.original };
    // Unknown, which a resume sends again, harmless for an update.
    if (error instanceof MayHaveBeenAppliedError) {
      const message = asClause(error.message);
      return { row: { ...row, outcome: 'unknown', status: error.status, message }, original: entry.original };
    }
    const { status, message } = customerFailureMessage(error, String(document), refusedWrite(client, sent));
    return { row: { ...row, outcome: 'failed', status, message }, original: entry.original };
  }
}

const updateCatalogue = customerCatalogue('update');

/** `--set FIELD=VALUE` pairs as an update body, each value typed like a CSV cell of that column. */
export function bodyFromAssignments(document: string, assignments: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = { document };
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    if (equals <= 0) throw new UsageError(`--set needs FIELD=VALUE, not "${assignment}".`);
    const field = assignment.slice(0, equals).trim();
    const type = customerFieldType(field, 'update');
    if (!type || field === 'document')
      throw new UsageError(`--set ${field}: not a field the update route takes; see b2bctl customer update --help.`);
    // An empty value (a script's unset variable) is refused, not sent: a list would go as [] and clear the
    // customer's groups, and text would not go at all while the run said "Updated".
    if (assignment.slice(equals + 1).trim() === '')
      throw new UsageError(`--set ${field}= has no value; nothing was sent. Give the value after the "=".`);
    // Separators with no name (`customerGroupList=|`) would go as an empty list and remove every group (a user test).
    if (type === 'list' && isSeparatorsOnly(assignment.slice(equals + 1)))
      throw new UsageError(
        `--set ${field}=${assignment.slice(equals + 1).trim()} holds separators with no name between them; nothing was sent. Give the names (--set '${field}=Atacado|Sul'); to remove every one on purpose, send "${field}": [] in a JSON file.`,
      );
    setPath(body, field, typedValue(assignment.slice(equals + 1), type, '.', updateCatalogue.readingOf?.(field)));
  }
  return body;
}

async function updateOne(
  document: string,
  assignments: readonly string[],
  flags: SendFlags,
  context: Context,
): Promise<void> {
  const verdict = new RecordChecker((record) => validateCustomerUpdate(record.values)).judge({
    line: 1,
    values: bodyFromAssignments(document, assignments),
    original: [],
    problems: [],
  });
  if (!verdict.ok) {
    // The document comes from --document, every other field from a --set: each problem names the flag to correct.
    for (const problem of verdict.problems)
      context.log.warn(`${problem.field === 'document' ? '--document' : '--set'}: ${problem.message}`);
    throw new InputError('The update is invalid (listed above); nothing was sent.', {
      field: verdict.problems[0]?.field,
    });
  }
  const { document: key, ...changes } = verdict.value;
  if (flags.dryRun) {
    // The body as it would go, secrets (a password set here) masked as everywhere b2bctl prints a body.
    context.log.info(
      `Dry run: customer ${document} would be sent ${redactBody(JSON.stringify(changes))}; nothing was sent.`,
    );
    return;
  }
  const client = await context.platform(oneRequestTuning(flags));
  let answer: PlatformResponse<Customer | undefined>;
  let sent = changes;
  try {
    const kept = await withKeptAddress(client, String(key), changes, undefined);
    sent = kept.body;
    answer = await updateCustomer(client, String(key), sent);
    if (kept.note !== undefined) context.log.info(`Customer ${document}: ${kept.note}.`);
  } catch (error) {
    if (error instanceof NoStoredAddress)
      throw new InputError(`Customer ${document}: ${error.message}. Nothing was sent.`, { field: error.field });
    if (error instanceof MayHaveBeenAppliedError) throw mayHaveBeenAppliedError(document, error);
    if (!(error instanceof PlatformError)) throw error;
    throw isUnknownDocument(error)
      ? customerNotFound(document, error)
      : explainedRefusal(error, refusedWrite(client, sent));
  }
  const doubt = doubtfulUpdate(answer.status, answer.body, String(key), sent);
  if (doubt !== undefined)
    throw new AmbiguousRequestError(`Customer ${document}: ${doubt}.`, { status: answer.status });
  // A 2xx is the update done, even when its body does not show the record; the line names the document given, and
  // the id only where the answer shows one (an answer of `[]` printed "Updated customer undefined (undefined).").
  const customer = readCustomerRecord(answer.body);
  if (customer === undefined) {
    context.log.info(`Updated customer ${document} (the platform answered without the record).`);
    return;
  }
  const id = shownId(customer.id);
  context.log.info(`Updated customer ${id === undefined ? document : `${id} (${document})`}.`);
  await writeObject(context, customer);
}

/** A record's id as a report or a line shows it; undefined when the record shows none. */
function shownId(id: unknown): string | number | undefined {
  if (id instanceof WrittenNumber) return id.written;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}
