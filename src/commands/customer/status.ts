import { type ReportEntry, runBulkJob } from '../../bulk/bulk-job.js';
import { type InputFlags, oneRequestTuning, type SendFlags } from '../../bulk/flags.js';
import { placeOf } from '../../bulk/report.js';
import { RecordChecker } from '../../bulk/validation-pass.js';
import { fieldProblem, type RecordVerdict } from '../../domain/validation.js';
import type { Context } from '../../context.js';
import { validateCustomerUpdate } from '../../domain/customer.js';
import { AmbiguousRequestError, InputError } from '../../base/errors.js';
import {
  customerFailureMessage,
  customerNotFound,
  doubtfulUpdate,
  mayHaveBeenAppliedError,
} from './customer-failures.js';
import { MayHaveBeenAppliedError } from '../../platform/applied-write.js';
import { asClause } from '../../lib/clause.js';
import type { InputRecord } from '../../io/input/open-input.js';
import { activeStateWords, parseActiveState } from '../../io/input/cell-values.js';
import type { FieldCatalogue } from '../../io/input/record-shape.js';
import { isUnknownDocument, setCustomerStatus } from '../../platform/customers.js';
import { writeObject } from '../../io/output/write-object.js';
import { customerDocumentValue, customerRecordKey } from './customer-input.js';
import { refuseFileOnlyFlags } from './one-customer-flags.js';
import { statusTarget } from './status-target.js';

/** `customer status TARGET [STATE]` as typed: statusTarget() says whether it names one customer or a FILE. */
export interface CustomerStatusOptions extends InputFlags, SendFlags {
  /** A CPF or CNPJ, or a file (`-` for stdin). */
  target: string;
  /** active, inactive or another state word, with a document. */
  state?: string;
  /** The flags given on the command line that only a FILE's run reads: refused with one customer. */
  fileOnlyFlags: readonly string[];
}

interface StatusChange {
  document: string;
  active: boolean;
}

export const statusCatalogue: FieldCatalogue = {
  typeOf: (path) => (path === 'document' ? 'string' : path === 'active' ? 'boolean' : undefined),
  textKindOf: (path) => (path === 'document' ? 'code' : undefined),
  // ativo/inativo, bloqueado/liberado as well as yes/no: what `customer status DOC STATE` takes.
  readingOf: (path) => (path === 'active' ? 'active state' : undefined),
  knownPaths: ['document', 'active'],
  requiredColumns: ['document', 'active'],
};

/** Activates or deactivates one customer (`DOC active|inactive`) or every customer of a FILE (`document,active`). */
export async function run(options: CustomerStatusOptions, context: Context): Promise<void> {
  const target = statusTarget(options.target, options.state);
  if ('file' in target) return statusFromFile({ ...options, file: target.file }, context);
  refuseFileOnlyFlags(options.fileOnlyFlags, 'b2bctl customer status states.csv');
  return statusOfOne(target, options, context);
}

/** `customer status DOC STATE`: one request. */
async function statusOfOne(
  { document, active }: { document: string; active: boolean },
  options: SendFlags,
  context: Context,
): Promise<void> {
  const verdict = checkStatus({ line: 1, values: { document, active }, original: [], problems: [] });
  if (!verdict.ok) {
    throw new InputError(`${verdict.problems.map((problem) => problem.message).join('; ')}; nothing was sent.`, {
      field: 'document',
    });
  }
  if (options.dryRun) {
    context.log.info(
      `Dry run: customer ${document} would be made ${active ? 'active' : 'inactive'}; nothing was sent.`,
    );
    return;
  }
  const client = await context.platform(oneRequestTuning(options));
  try {
    const { status, body: answer } = await setCustomerStatus(client, verdict.value.document, active);
    const doubt = doubtfulUpdate(status, answer, verdict.value.document, { active });
    if (doubt !== undefined) throw new AmbiguousRequestError(`Customer ${document}: ${doubt}.`, { status });
    context.log.info(`Customer ${document} is now ${active ? 'active' : 'inactive'}.`);
    // On a terminal the line above says it all; piped (or with -o), the platform's answer is the data.
    const wantsData =
      context.globals.output !== undefined ? context.globals.output !== 'table' : !context.io.isStdoutTTY;
    if (wantsData && answer && typeof answer === 'object' && !Array.isArray(answer))
      await writeObject(context, answer as Record<string, unknown>);
  } catch (error) {
    if (isUnknownDocument(error)) throw customerNotFound(document, error, 'paths.customerStatus');
    if (error instanceof MayHaveBeenAppliedError) throw mayHaveBeenAppliedError(document, error);
    throw error;
  }
}

function checkStatus(record: InputRecord): RecordVerdict<StatusChange> {
  // A file's `Ativo`/`Inativo` is read as the command line's state word is (the reader typed only true/false words).
  const written = record.values.active;
  const active = typeof written === 'string' ? parseActiveState(written) : written;
  const verdict = validateCustomerUpdate({
    document: record.values.document,
    active: typeof active === 'boolean' ? active : undefined,
  });
  const problems = verdict.ok ? [] : [...verdict.problems];
  if (typeof active !== 'boolean')
    problems.push(
      fieldProblem('active', written === undefined ? '' : String(written), `active must be ${activeStateWords}`),
    );
  if (problems.length > 0) return { ok: false, problems };
  // The document as the update rules send it: a written one with spaces goes as read (documentAsSent).
  return {
    ok: true,
    value: {
      document: String(verdict.ok ? verdict.value.document : record.values.document),
      active: active as boolean,
    },
  };
}

async function statusFromFile(options: { file: string } & InputFlags & SendFlags, context: Context): Promise<void> {
  await runBulkJob<StatusChange>(
    {
      name: 'customer status',
      // One lock for the three: two runs writing one store's customers at once would each find the other's creates
      // "already registered" and report them failed.
      lockName: 'customers',
      unit: 'customers',
      file: options.file,
      flags: options,
      catalogue: statusCatalogue,
      newChecker: () => new RecordChecker(checkStatus, (change) => [customerDocumentValue(change)]),
      keyOf: customerRecordKey,
      // The same status set twice is the status set once.
      resumeOfUnknown: 'sends again',
      outcomes: ['updated', 'invalid', 'failed', 'unknown'],
      sentOutcomes: ['updated'],
      plan: () => ({ batchSize: 1, description: 'to the status route' }),
      sendBatch: (client, batch, signal) =>
        Promise.all(
          batch.map(async (entry): Promise<ReportEntry> => {
            const row = { ...placeOf(entry), key: entry.key };
            try {
              const answer = await setCustomerStatus(client, entry.value.document, entry.value.active, signal);
              const { status } = answer;
              const doubt = doubtfulUpdate(status, answer.body, entry.value.document, entry.value);
              if (doubt !== undefined)
                return { row: { ...row, outcome: 'unknown', status, message: doubt }, original: entry.original };
              return {
                row: { ...row, outcome: 'updated', status, message: entry.value.active ? 'active' : 'inactive' },
                original: entry.original,
              };
            } catch (error) {
              // Unknown, which a resume sends again, harmless for a status change.
              if (error instanceof MayHaveBeenAppliedError) {
                const message = asClause(error.message);
                return { row: { ...row, outcome: 'unknown', status: error.status, message }, original: entry.original };
              }
              const { status, message } = customerFailureMessage(
                error,
                entry.value.document,
                undefined,
                'paths.customerStatus',
              );
              return { row: { ...row, outcome: 'failed', status, message }, original: entry.original };
            }
          }),
        ),
    },
    context,
  );
}
