import { customerAdvisories } from '../../domain/customer.js';
import { type PendingRecord, type ReportEntry, runBulkJob } from '../../bulk/bulk-job.js';
import type { InputFlags, SendFlags } from '../../bulk/flags.js';
import { placeOf } from '../../bulk/report.js';
import type { Context } from '../../context.js';
import { customerFieldPaths, type CustomerCreateBody } from '../../domain/customer.js';
import {
  AmbiguousRequestError,
  CredentialsRefusedAfterWriteError,
  ExitCode,
  exitCodeOf,
  NothingSentError,
  PlatformError,
  StoppedAfterWriteError,
  UnavailableError,
} from '../../base/errors.js';
import type { PlatformClient, PlatformResponse } from '../../platform/client.js';
import { AmbiguousAnswerError } from '../../platform/http-client.js';
import { MayHaveBeenAppliedError } from '../../platform/applied-write.js';
import {
  anotherCustomersRecord,
  createCustomer,
  type Customer,
  otherCustomerIn,
  refusalIn2xx,
  registeredCustomer,
} from '../../platform/customers.js';
import {
  linksShownEmpty,
  nameStoredOtherwise,
  noCustomerShown,
  showsNoCustomer,
  readCustomerRecord,
  sentValuesShownOtherwise,
  storedEmailOf,
} from '../../platform/answers/customers.js';
import { redactSecrets } from '../../lib/secret-values.js';
import { quotedAnswer } from '../../base/quoted-answer.js';
import { EncodedSlashRefusedError } from '../../platform/encoded-slash.js';
import { customerCatalogue, customerRecordKey, newCustomerChecker } from './customer-input.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { leavesAddressPartsOut, NoStoredAddress, updateKeepingAddress } from './kept-address.js';
import { doubtfulUpdate, refusalMessage, refusedWrite } from './customer-failures.js';
import { type KeptChange, keptChangeWords, keptChanges, keptNote, sameEmail } from './upsert-kept.js';
import { countOf } from '../../lib/plural.js';
import { asClause, asSentence } from '../../lib/clause.js';

export interface CustomerCreateOptions extends InputFlags, SendFlags {
  file: string;
  /** A customer whose document is already registered is updated instead of failing. */
  upsert: boolean;
}

/** Creates the customers of a file, one request each, never twice (docs/bulk-runs.md). */
export async function run(options: CustomerCreateOptions, context: Context): Promise<void> {
  const kept = keptChangesTally(context);
  await runBulkJob<CustomerCreateBody>(
    {
      name: 'customer create',
      // One lock for the three: two runs writing one store's customers at once would each find the other's creates
      // "already registered" and report them failed.
      lockName: 'customers',
      unit: 'customers',
      file: options.file,
      flags: options,
      catalogue: customerCatalogue('create'),
      newChecker: () => newCustomerChecker<CustomerCreateBody>('create'),
      advisories: (record) => customerAdvisories(record.values),
      keyOf: customerRecordKey,
      listedBy: { verb: 'customer validate' },
      shaping: [{ flag: '--upsert', key: 'upsert', unset: false }],
      // A create that may have made the customer is looked up before it is sent again (resumedUnknownFirst).
      resumeOfUnknown: 'asks first',
      outcomes: ['created', 'updated', 'invalid', 'failed', 'unknown'],
      // A create whose outcome is unknown may have made the customer: the resume asks, feeding it back would not.
      unknownToFeedBack: false,
      // A dry run of a resume says so: read at its line, options.upsert is the interrupted run's (restored).
      resumedUnknownFirst: (records) =>
        `Of these, ${countOf(records, 'customers')} whose create the resumed run could not tell went through ${records === 1 ? 'is' : 'are'} looked up first: sent only if not found${options.upsert ? ', updated if found (--upsert)' : ''}.`,
      sentOutcomes: ['created', 'updated'],
      plan: () => ({
        batchSize: 1,
        // The requests the summary counts beyond one a customer, said before they are made.
        description: options.upsert
          ? 'to POST /v1/customer; a registered customer read, then updated (--upsert)'
          : 'to POST /v1/customer',
      }),
      // options.upsert is read at send time: a --resume may have restored it from the interrupted run.
      sendBatch: async (client, batch, signal) =>
        Promise.all(batch.map(async (entry) => kept.said(await createOnce(client, entry, options.upsert, signal)))),
      sendingLesson: () => kept.summary(),
    },
    context,
  );
}

/**
 * The changes of the file that upserts kept, said on stderr and not in the report alone: the file's new e-mail or
 * delivery list is not the customer's, though the run says "updated". The first row of each kind is named when it
 * comes, and the run's end counts them all. So is, once, a create whose answer shows the groups or tags sent empty.
 */
function keptChangesTally(context: Context): {
  said(entry: UpsertEntry): ReportEntry;
  summary(): string | undefined;
} {
  const rows = new Map<KeptChange, number>();
  let updated = 0;
  let unlinkedSaid = false;
  return {
    said(entry) {
      for (const change of entry.kept ?? []) {
        const count = rows.get(change) ?? 0;
        rows.set(change, count + 1);
        if (count === 0)
          context.log.warn(
            `warning: line ${entry.row.line}: customer ${entry.row.key} was updated but keeps ${keptChangeWords[change].kept}: ${keptChangeWords[change].route}; the report names every such row.`,
          );
      }
      if ((entry.kept?.length ?? 0) > 0) updated++;
      // Said once a run: a store that drops links drops them on every row, which the report names.
      if (entry.unlinked !== undefined && !unlinkedSaid) {
        unlinkedSaid = true;
        context.log.warn(
          `warning: line ${entry.row.line}: customer ${entry.row.key} was created, but the platform's answer shows ${entry.unlinked.join(' and ')} empty though the file gave them: the customer may be outside its groups or price tags (check them in the store); the report names every such row.`,
        );
      }
      return entry;
    },
    summary() {
      if (updated === 0) return undefined;
      const kinds = [...rows].map(([change, count]) => `${keptChangeWords[change].kept} on ${countOf(count, 'rows')}`);
      return `warning: customer create: ${countOf(updated, 'updated customers')} ${updated === 1 ? 'keeps' : 'keep'} what the file changed and --upsert cannot change (${kinds.join(', ')}); the report's message names each row.`;
    },
  };
}

/** A report entry, with what of the file an upsert could not change. */
type UpsertEntry = ReportEntry & { kept?: readonly KeptChange[]; unlinked?: readonly string[] };

/** A customer the documented question found registered: its record as the answer shows it, and the answer's status. */
type StoredCustomer = NonNullable<Awaited<ReturnType<typeof registeredCustomer>>>;

/** A report row of one record. */
type Reporter = (
  outcome: ReportEntry['row']['outcome'],
  fields: { status?: number; id?: number | string; message?: string; fixedBy?: string },
  kept?: readonly KeptChange[],
) => UpsertEntry;

/**
 * Creates one customer. Creating is not idempotent: when the answer is lost (a reset, a time-out, a gateway
 * error) the customer is looked up, so a customer that was created is never reported failed, nor one found with
 * another e-mail (registered before) reported created. A look-up that finds
 * none does not prove the create was not done: the platform may still be working on it (slower than --timeout, or
 * behind a gateway that gave up), and its customer may appear after the look-up. So it is never sent again in this
 * run: the record is `unknown` (a row, not a failure of the platform's: it answered the look-up), and a resume, long
 * after, asks again before it sends. A request that provably never left (a refused connection) is sent again by the
 * HTTP client itself (retry-policy.ts).
 */
export async function createOnce(
  client: PlatformClient,
  entry: PendingRecord<CustomerCreateBody>,
  upsert: boolean,
  signal: AbortSignal,
): Promise<UpsertEntry> {
  const document = String(entry.value.document);
  const report: Reporter = (outcome, fields, kept) => ({
    row: { ...placeOf(entry), key: entry.key, outcome, ...fields },
    original: entry.original,
    ...(kept && kept.length > 0 ? { kept } : {}),
  });
  // The interrupted run could not tell whether this create went through, and said the resume asks first: sent
  // first, it would rely on the platform refusing a duplicate it may still be storing (a fresh user test).
  if (entry.reportedUnknown) {
    const earlier = resumedFind(entry.reportedStatus, document);
    const stored = await storedAfterLostAnswer(client, document, earlier.lead, entry.reportedStatus, signal);
    if (stored instanceof QuestionUnanswered) return report('unknown', { status: entry.reportedStatus, ...stored.row });
    if (stored !== undefined) return existingAfterLostAnswer(client, entry, upsert, earlier, stored, report, signal);
  }
  let created: PlatformResponse<Customer | undefined>;
  try {
    created = await createCustomer(client, entry.value, signal);
  } catch (error) {
    const lost = lostAnswerOf(error);
    if (lost !== undefined)
      return afterUnseenCreate(client, entry, upsert, { lead: lost.error.message, ...lost }, report, signal);
    if (!(error instanceof PlatformError) || error.exitCode === ExitCode.authFailed) throw error;
    if (!asksWhetherRegistered(error.status))
      return report('failed', {
        status: error.status,
        message: refusalMessage(error, refusedWrite(client, entry.value)),
      });
    return afterRefusedCreate(client, entry, upsert, error, report, signal);
  }
  return answeredCreate(client, entry, upsert, created, report, signal);
}

/**
 * A create whose outcome was not seen (`lead` and `what` say how: a lost answer, a 2xx without the customer), asked
 * about: found, as existingAfterLostAnswer decides; not found, `unknown` (the platform may still be creating it, so
 * it is not sent again in this run: a resume asks again); a question that did not tell, `unknown` too
 * (unansweredQuestion).
 */
async function afterUnseenCreate(
  client: PlatformClient,
  entry: PendingRecord<CustomerCreateBody>,
  upsert: boolean,
  unseen: { lead: string; what: string; status?: number },
  report: Reporter,
  signal: AbortSignal,
): Promise<ReportEntry> {
  const document = String(entry.value.document);
  const { lead, what, status } = unseen;
  const stored = await storedAfterLostAnswer(client, document, lead, status, signal);
  if (stored instanceof QuestionUnanswered) return report('unknown', { status, ...stored.row });
  if (stored !== undefined) {
    const found = { what, status, created: `${what}; the customer exists, so it was not sent again` };
    return existingAfterLostAnswer(client, entry, upsert, found, stored, report, signal);
  }
  // The platform answered the look-up, so it is there: the create alone is unknown, not the platform unavailable.
  return report('unknown', {
    status,
    message: `${lead} No customer had document ${document} when asked, but the platform may still be creating it, so it was not sent again; a resume asks again before sending it.`,
  });
}

/**
 * A create's 2xx, read as a lost answer's look-up is (docs/bulk-runs.md): a body that does not tell (createDoubt) is
 * `unknown`; the record of a customer of this document with another e-mail is the customer registered before
 * (`failed`, the --upsert advice; with --upsert, updated), never `created` with that customer's id; a body that shows
 * no customer at all (`{}`, `{"message": "Cadastro recebido"}`) is asked about, as a lost answer is. Each was
 * reported `created`, exit 0, with nothing of the file stored (a user test). A 202 keeps its queue's reading, and no
 * body, `null` or `[]` stays created (createdAnswer).
 */
async function answeredCreate(
  client: PlatformClient,
  entry: PendingRecord<CustomerCreateBody>,
  upsert: boolean,
  created: PlatformResponse<Customer | undefined>,
  report: Reporter,
  signal: AbortSignal,
): Promise<UpsertEntry> {
  const document = String(entry.value.document);
  const { status, body } = created;
  const doubt = createDoubt(body, document, entry.value.password);
  if (doubt !== undefined)
    return report('unknown', {
      status,
      message: `the create was answered HTTP ${status} ${doubt}. Whether customer ${document} was created is not known, so it was not sent again; a resume asks the platform before sending it.`,
    });
  const record = readCustomerRecord(body);
  const email = storedEmailOf(record);
  if (record !== undefined && email !== undefined && !sameEmail(entry.value.username, email)) {
    const what = `the create was answered HTTP ${status} with a customer's record showing another e-mail`;
    return existingAfterLostAnswer(
      client,
      entry,
      upsert,
      { what, status, created: what },
      { record, status },
      report,
      signal,
    );
  }
  if (status !== 202 && showsNoCustomer(body)) {
    const shown = quotedAnswer(redactSecrets(JSON.stringify(body), [entry.value.password]));
    const what = `the create was answered HTTP ${status} without the customer's record`;
    return afterUnseenCreate(client, entry, upsert, { lead: `${what} (${shown}).`, what, status }, report, signal);
  }
  return createdAnswer(entry.value, created, report);
}

/**
 * A create's 2xx that shows the customer made (answeredCreate): `created`. A record that shows the groups or price
 * tags sent empty is created all the same, and named (`unlinked`): the customer may be outside them.
 */
function createdAnswer(
  body: CustomerCreateBody,
  created: PlatformResponse<Customer | undefined>,
  report: Reporter,
): UpsertEntry {
  const { status } = created;
  const record = readCustomerRecord(created.body);
  const unlinked = linksShownEmpty(body, record);
  const notes = [queuedNote(status), unlinkedNote(unlinked)].filter((note) => note !== undefined);
  const message = notes.length === 0 ? undefined : notes.join('; ');
  return { ...report('created', { status, id: idOf(record), message }), ...(unlinked.length > 0 ? { unlinked } : {}) };
}

/**
 * Why a create's 2xx does not show the customer made, or undefined when it does (or shows nothing, which is no doubt):
 * a body that refuses it, another customer's record, text or a record without an id in place of the customer
 * (noCustomerShown). The password the create sent is masked wherever the answer quotes it.
 */
function createDoubt(answer: unknown, document: string, password: string | undefined): string | undefined {
  const refusal = refusalIn2xx(answer, [password]);
  if (refusal !== undefined) return `with a body that refuses it: ${refusal}`;
  const other = otherCustomerIn(answer, document);
  if (other !== undefined) return anotherCustomersRecord(other, document);
  const shown = noCustomerShown(answer);
  return shown === undefined ? undefined : redactSecrets(shown, [password]);
}

/** The report's note of a create whose answer shows the links sent empty; undefined when it shows none so. */
function unlinkedNote(unlinked: readonly string[]): string | undefined {
  if (unlinked.length === 0) return undefined;
  return `created, but the platform's answer shows ${unlinked.join(' and ')} empty though the file gave them: the customer may be outside its groups or price tags; check them in the store`;
}

/**
 * A 202 Accepted takes the create to do later (a platform with a queue): counted created, as the platform took it,
 * but the row says the customer may be neither stored nor refused yet.
 */
function queuedNote(status: number): string | undefined {
  return status === 202
    ? 'the platform answered 202 Accepted: it took the create to do later, so the customer may not be stored yet, nor refused'
    : undefined;
}

/**
 * A create whose outcome its answer does not tell, how the report says so, and the status that came, if any: an
 * answer lost (a reset, a time-out, a 502, 503 or 504, which the client never repeats for a create), or another 5xx
 * of the platform's, which may come after it stored the customer as a gateway's may (the client's rule for a write).
 */
function lostAnswerOf(error: unknown): { error: AmbiguousRequestError; what: string; status?: number } | undefined {
  // A 500 or another 5xx (the client's rule for a write), or a 502, 503 or 504: an answer, though not the create's outcome.
  if (error instanceof MayHaveBeenAppliedError)
    return { error, what: `the create was answered HTTP ${error.status}`, status: error.status };
  if (error instanceof AmbiguousAnswerError)
    return { error, what: `the create was answered HTTP ${error.response.status}`, status: error.response.status };
  // A 2xx whose body was cut short or could not be decoded: answered, though not in words b2bctl could read.
  if (error instanceof AmbiguousRequestError)
    return error.status === undefined
      ? { error, what: 'the answer to the create was lost' }
      : {
          error,
          what: `the create was answered HTTP ${error.status}, in words b2bctl could not read`,
          status: error.status,
        };
  return undefined;
}

/**
 * The question asked after a lost answer that did not tell, and the run goes on (unansweredQuestion): the platform
 * refused it (a 400 or 405 to the empty update: a gateway that takes no update with nothing to update), which says
 * nothing of the create, or the run was stopping before it was sent. The create stays `unknown` (a row quoting why,
 * asked again by the resume), never `failed` in the question's words nor `not sent` (user tests).
 */
class QuestionUnanswered {
  readonly row: { message: string };

  constructor(row: { message: string }) {
    this.row = row;
  }
}

/**
 * The stored record of a create whose answer was lost (`lead` says how; `status`, what it was answered with, if
 * anything) and the status of the question that read it, or undefined when no customer has the document; when the
 * question did not tell, what unansweredQuestion makes of its failure.
 */
async function storedAfterLostAnswer(
  client: PlatformClient,
  document: string,
  lead: string,
  status: number | undefined,
  signal: AbortSignal,
): Promise<StoredCustomer | QuestionUnanswered | undefined> {
  try {
    return await registeredCustomer(client, document, signal);
  } catch (error) {
    return unansweredQuestion(error, document, lead, status);
  }
}

/**
 * The one rule for a question asked after a create went out that failed, whatever failed: the create stays
 * `unknown`, with its row, never `not sent` (a user test: a proxy's HTML page answering the question left the row
 * `not sent`, and the resume sent the create again blindly). Returned, the run going on, when the platform refused
 * the question or the run was stopping before it was sent (QuestionUnanswered); thrown as the error the bulk run
 * reports `unknown` when the platform could not be asked (AmbiguousRequestError, counted unavailable), refused this
 * user's credentials (CredentialsRefusedAfterWriteError, exit 77), or anything else failed it, such as a page or a
 * redirect from something in front of the platform (StoppedAfterWriteError: the run stops as that failure stops it).
 */
function unansweredQuestion(
  error: unknown,
  document: string,
  lead: string,
  status: number | undefined,
): QuestionUnanswered {
  const notAsked = `${lead} Whether customer ${document} was created could not be asked`;
  const askAgain = 'a resume asks again before sending it.';
  // A server in front of the platform that refused the question's encoded "/" said nothing of the customer either.
  if (error instanceof UnavailableError || error instanceof EncodedSlashRefusedError)
    throw new AmbiguousRequestError(`${notAsked} either (${asClause(error.message)}); ${askAgain}`, {
      cause: error,
    });
  if (exitCodeOf(error) === ExitCode.authFailed && error instanceof Error)
    throw new CredentialsRefusedAfterWriteError(
      questionRefusedToUser(error),
      `${notAsked}: the platform refused this user's credentials for the question (${asClause(error.message)}); ${askAgain}`,
      status,
      { cause: error },
    );
  if (error instanceof PlatformError)
    return new QuestionUnanswered({
      message: `${notAsked}: the platform refused the question (${asClause(error.message)}), which says nothing of the create; ${askAgain}`,
    });
  // Ctrl-C, or another request's failure that stopped the run, came between the create and its question.
  if (error instanceof NothingSentError)
    return new QuestionUnanswered({
      message: `${notAsked}: the run was stopping, so the question was not sent (${asClause(error.message)}); ${askAgain}`,
    });
  const why = error instanceof Error ? asClause(error.message) : String(error);
  throw new StoppedAfterWriteError(error, `${notAsked} (${why}); ${askAgain}`, status);
}

/**
 * The error line of a run stopped by refused credentials while asking whether a create went through: a 403 says this
 * user may not use the update route the question is asked with (an integration user allowed to create customers and
 * not to update them), in a sentence of its own; a login refused (401) keeps its own words, which say how to log in.
 */
function questionRefusedToUser(error: Error): string {
  if (!(error instanceof PlatformError) || error.status !== 403) return asSentence(error.message);
  return `${asSentence(error.message)} The update route (PUT /v1/customer/{document}), which b2bctl asks with whether a create whose answer was lost went through, is refused to this user: give it the right to update customers, or log in as a user that has it.`;
}

/**
 * How a create whose outcome was not seen went (`what`), the status its answer gave, if any, and the message of a
 * customer found with the file's e-mail, the evidence that the create made it.
 */
interface UnseenCreate {
  what: string;
  status?: number;
  created: string;
}

/**
 * An `unknown` row of the resumed report, worded from the status it recorded: none (the answer was lost: a time-out,
 * a reset, a run killed), a 2xx (a body that refused, a page: the platform answered, so "had no answer" was wrong, a
 * fresh user test), or another (a 5xx, which may come after the create); `lead` says so before a question that cannot
 * be asked.
 */
function resumedFind(status: number | undefined, document: string): UnseenCreate & { lead: string } {
  if (status === undefined)
    return {
      lead: `The interrupted run sent customer ${document} and could not tell whether it was created.`,
      what: "the interrupted run's create had no answer",
      created: 'already registered with this e-mail: the interrupted run created it before its answer was recorded',
    };
  // A 2xx row is `unknown` only for words that did not tell (a body that refused, an HTML page, one not decoded).
  const answered = `answered HTTP ${status}${status < 300 ? ' in words that did not tell' : ''}`;
  return {
    lead: `The earlier run's create of customer ${document} was ${answered}${status < 300 ? ' whether it was created' : ', which may come after a create'}.`,
    what: `the earlier run's create was ${answered}`,
    created: `already registered with this e-mail: the earlier run's create made it, though it was ${answered}`,
  };
}

/**
 * A create whose outcome was not seen (`what` says how), and the customer exists. Without --upsert it is never sent
 * again, and only the file's e-mail in the record shows the create made it: another e-mail is a customer registered
 * before (failed, as a refused duplicate is), none shown tells nothing (unknown). With --upsert, created by it or
 * there before, the file's values go as an update (an update may be repeated), so a customer that was there before is
 * not left as it was.
 */
async function existingAfterLostAnswer(
  client: PlatformClient,
  entry: PendingRecord<CustomerCreateBody>,
  upsert: boolean,
  { what, status, created }: UnseenCreate,
  stored: StoredCustomer,
  report: Reporter,
  signal: AbortSignal,
): Promise<ReportEntry> {
  const document = String(entry.value.document);
  if (!upsert) {
    const email = storedEmailOf(stored.record);
    const otherwise = sentValuesShownOtherwise(entry.value, stored.record);
    const fileEmail = sameEmail(entry.value.username, email);
    if (fileEmail && otherwise.length === 0)
      return report('created', {
        status: stored.status,
        id: idOf(stored.record),
        message: withNote(created, nameStoredOtherwise(entry.value, stored.record)),
      });
    if (email === undefined && otherwise.length === 0)
      return report('unknown', {
        status,
        message: `${what}; customer ${document} exists, but the platform's answer shows no e-mail to tell whether this create made it or it was there before, so it was not sent again`,
      });
    return report('failed', {
      status,
      message: alreadyRegistered(
        `${what}, and document ${document} is already registered`,
        fileEmail ? undefined : email,
        otherwise,
      ),
      fixedBy: 'upsert',
    });
  }
  return updatedByUpsert(client, entry, stored, report, signal, {
    lead: `${what} and the customer exists (created by it, or there before)`,
    went: "the file's values went as an update",
  });
}

/**
 * An upsert's update of a registered customer, its registration address completed from the record read (`stored`):
 * `updated`, or `unknown` when its 2xx does not show it done (doubtfulUpdate), or `invalid` (not sent) when the
 * stored record cannot complete the address. `said.lead` opens the row's message, `said.went` follows it when sent.
 */
async function updatedByUpsert(
  client: PlatformClient,
  entry: PendingRecord<CustomerCreateBody>,
  stored: StoredCustomer,
  report: Reporter,
  signal: AbortSignal,
  said: { lead?: string; went?: string } = {},
): Promise<ReportEntry> {
  const document = String(entry.value.document);
  const lead = (more: string | undefined) => [said.lead, more].filter((part) => part !== undefined).join(': ');
  let updated: Awaited<ReturnType<typeof updateKeepingAddress>>;
  try {
    updated = await updateKeepingAddress(client, document, updateBodyOf(entry.value), signal, stored);
  } catch (error) {
    if (!(error instanceof NoStoredAddress)) throw error;
    return report('invalid', { message: lead(`not sent as an update: ${error.message}`) });
  }
  const doubt = doubtfulUpdate(updated.status, updated.customer, document);
  if (doubt !== undefined) return report('unknown', { status: updated.status, message: lead(doubt) });
  const kept = keptChanges(entry.value, stored.record);
  const notes = [said.lead === undefined ? undefined : lead(said.went), keptNote(kept), updated.note].filter(
    (note) => note !== undefined,
  );
  const message = notes.length === 0 ? undefined : notes.join('; ');
  return report('updated', { status: updated.status, id: idOf(readCustomerRecord(updated.customer)), message }, kept);
}

/**
 * Whether a create's refusal is worth the one harmless question "is this document registered?": the document's 400
 * (an unparsable body, or a registered e-mail or document), and a 409 Conflict, the usual HTTP answer for "already
 * exists" (a resumed create of a customer the interrupted run made is answered so by such a platform). Never read
 * from the wording, which the document does not show.
 */
function asksWhetherRegistered(status: number): boolean {
  return status === 400 || status === 409;
}

/**
 * A create answered 400 or 409 (asksWhetherRegistered). The document says a create answers 400 for an unparsable
 * body or a registered e-mail or document, without showing the body: ask the platform which, never read the
 * wording. With --upsert, a registered customer is updated.
 */
async function afterRefusedCreate(
  client: PlatformClient,
  entry: PendingRecord<CustomerCreateBody>,
  upsert: boolean,
  error: PlatformError,
  report: Reporter,
  signal: AbortSignal,
): Promise<ReportEntry> {
  const document = String(entry.value.document);
  // The platform's reason when its 400 gives one (a password policy, a field it refused), whatever its wording, and
  // beside it what the question established: a "já cadastrado" sent the operator hunting a customer of this
  // document that does not exist (a user test). The guess from the documented causes only when it says nothing.
  const notRegistered = () =>
    report('failed', {
      status: error.status,
      message:
        error.platformMessage === undefined
          ? `no customer has document ${document}, so the e-mail ${String(entry.value.username)} is registered to another customer${error.status === 400 ? ' (or the platform could not parse the body)' : ''}`
          : `${error.platformMessage}; document ${document} is not registered on the store, so the refusal is about another field, such as the e-mail`,
    });
  const changes = updateBodyOf(entry.value);
  if (upsert && !entry.unanswered && !leavesAddressPartsOut(changes)) {
    // The update itself is the documented question: 404 means no customer has the document.
    const updated = await registeredCustomer(client, document, signal, changes);
    if (!updated) return notRegistered();
    // The route takes no e-mail or delivery list, so the record it answers holds the stored ones.
    const kept = keptChanges(entry.value, updated.record);
    return report('updated', { status: updated.status, id: idOf(updated.record), message: keptNote(kept) }, kept);
  }
  let registered: StoredCustomer | undefined;
  try {
    registered = await registeredCustomer(client, document, signal);
  } catch (question) {
    // A server in front that refused the encoded "/" has its own advice (the failed row names the setting).
    const refused = question instanceof PlatformError && !(question instanceof EncodedSlashRefusedError);
    if (refused && question.exitCode !== ExitCode.authFailed)
      return questionRefusedAfterRefusal(entry, error, question, report);
    // The interrupted run's create may have made the customer: the rule of a question after a create went out.
    if (entry.unanswered) return resentCreateUnasked(entry, error, question, report);
    throw question;
  }
  if (!registered) return notRegistered();
  const existing = registered.record;
  const storedEmail = storedEmailOf(existing);
  const fileEmail = sameEmail(entry.value.username, storedEmail);
  const otherwise = sentValuesShownOtherwise(entry.value, existing);
  // A resumed run: the interrupted one may have created this customer and died before the answer, and then the
  // record holds what it sent. With --upsert it is updated all the same: a customer that existed before gets the
  // file's values, as the run was asked to.
  if (entry.unanswered && fileEmail && otherwise.length === 0 && !upsert) {
    return report('created', {
      id: idOf(existing),
      message: withNote(
        'already registered with this e-mail: the interrupted run created it before its answer was recorded',
        nameStoredOtherwise(entry.value, existing),
      ),
    });
  }
  // The platform's own words when it gave any; what we established when it did not.
  const said = error.platformMessage ?? `document ${document} is already registered`;
  if (!upsert)
    return report('failed', {
      status: error.status,
      message: alreadyRegistered(said, fileEmail ? undefined : storedEmail, entry.unanswered ? otherwise : []),
      // Nothing in the record to fix: fed back without --upsert, it is refused again.
      fixedBy: 'upsert',
    });
  // The stored record read above completes an address the file gives in part.
  return updatedByUpsert(client, entry, registered, report, signal);
}

/**
 * A create refused 400 or 409, and the question that would tell whether the document is registered refused too (a
 * gateway that takes no update with nothing to update): the create's own refusal is the row's, never the question's,
 * which says nothing of the customer (a user test). A resumed record without a row may have been created by the
 * interrupted run, which its refusal does not rule out: `unknown`, asked again by the next resume.
 */
function questionRefusedAfterRefusal(
  entry: PendingRecord<CustomerCreateBody>,
  refusal: PlatformError,
  question: PlatformError,
  report: Reporter,
): ReportEntry {
  const document = String(entry.value.document);
  const unasked = `whether document ${document} is registered could not be asked: the platform refused the question (${asClause(question.message)})`;
  if (entry.unanswered)
    return report('unknown', {
      status: refusal.status,
      message: `the interrupted run sent customer ${document} and could not tell whether it was created; sent again, the create was refused (${asClause(refusal.message)}), and ${unasked}; a resume asks again before sending it.`,
    });
  return report('failed', {
    status: refusal.status,
    message: `${refusal.platformMessage ?? refusal.message} (${unasked})`,
  });
}

/**
 * A resumed record without a row, its create sent again and refused 400 or 409, and the question that would tell
 * whether the interrupted run made the customer failed other than by a refusal (unansweredQuestion): `unknown`, asked
 * again by the next resume; never `not sent`, which the next resume would send again without asking.
 */
function resentCreateUnasked(
  entry: PendingRecord<CustomerCreateBody>,
  refusal: PlatformError,
  question: unknown,
  report: Reporter,
): ReportEntry {
  const document = String(entry.value.document);
  const lead = `The interrupted run sent customer ${document} and could not tell whether it was created; sent again, the create was refused (${asClause(refusal.message)}).`;
  return report('unknown', {
    status: refusal.status,
    ...unansweredQuestion(question, document, lead, refusal.status).row,
  });
}

/**
 * The line of a document registered before: what was said of it, the stored e-mail when another, what else the
 * record shows otherwise than the file sent (sentValuesShownOtherwise: a record this job's create made would not),
 * and the fix.
 */
function alreadyRegistered(said: string, storedEmail: string | undefined, otherwise: readonly string[] = []): string {
  const emailNote = storedEmail === undefined ? '' : `registered with the e-mail ${storedEmail}; `;
  const otherNote =
    otherwise.length === 0 ? '' : `its record shows ${otherwise.join(' and ')}, so it was there before this create; `;
  return `${said} (${emailNote}${otherNote}pass --upsert to update existing customers)`;
}

const updatableFields = new Set(customerFieldPaths.update.map((path) => path.split('.')[0] ?? path));

/** The part of a create body that the update route accepts (no password, no delivery address list). */
export function updateBodyOf(body: CustomerCreateBody): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(([field]) => field !== 'document' && updatableFields.has(field)),
  );
}

/** A row's message and the note that follows it, if any. */
function withNote(message: string, note: string | undefined): string {
  return note === undefined ? message : `${message}; ${note}`;
}

/** The record id of an answer, when it shows one: a 2xx without it is still a success. */
function idOf(customer: Partial<Customer> | undefined): number | string | undefined {
  const id: unknown = customer?.id;
  if (id instanceof WrittenNumber) return id.written;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}
