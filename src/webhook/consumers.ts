import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'undici';
import { connectionRules, defaultConnectTimeoutMs, dispatcherFor } from '../net/dispatcher.js';
import { withoutUserInfo } from '../net/erp-credential.js';
import {
  explainNetworkProblem,
  type NetworkProblem,
  networkProblemSentence,
  type UrlSource,
} from '../net/network-error.js';
import type { ProxyEnvironment } from '../net/proxy-route.js';
import { quotedAnswer } from '../base/quoted-answer.js';
import { redactSecrets, secretsOfAuthorization, secretsOfUrl } from '../lib/secret-values.js';
import { commandShownSafely, urlShownSafely } from '../lib/shown-target.js';
import { killProcessGroup } from '../lib/process-alive.js';
import { timerDelay } from '../lib/timer-delay.js';
import { headerText, parseRetryAfter } from '../lib/http-text.js';
import type { CommandRuns } from './command-runs.js';
import { type ForwardRequest, ForwardThread } from './forward-thread.js';
import { CommandOutput, failureWithOutput } from './command-output.js';
import { commandEnvironment, type ExecEnvironment, secretsGivenTo } from './exec-environment.js';
import type { StoredEvent } from './store/types.js';

/** Something that takes one stored event: throws when it did not (then the same event is tried again). */
export interface EventConsumer {
  /**
   * What it delivers to, shown in logs and on /healthz and kept with the hand-off, without credentials:
   * `http://***@erp/hook?key=***` or `exec ./import.sh …` (src/lib/shown-target.ts).
   */
  target: string;
  /** Rejects when `signal` aborts (shutdown), leaving nothing running. */
  deliver(event: StoredEvent, signal: AbortSignal): Promise<void>;
  /**
   * Delivers `events` in order, each only after the one before was taken, and stops at the first failure: how many
   * were taken, and that failure as `deliver` would have thrown it. Where a consumer has it, the hand-off gives it
   * the events it has read ahead. `progress` is told how many of them were taken so far, at most every 100 ms,
   * while a run goes on: the hand-off records them in their group's time, not at the run's end.
   */
  deliverInOrder?(
    events: StoredEvent[],
    signal: AbortSignal,
    progress?: (taken: number) => void,
  ): Promise<{ taken: number; failure?: Error }>;
  /** Ends what it keeps open (a thread, connections): the hand-off has stopped. */
  close?(): Promise<void>;
  /** Called once before the first delivery: settles what a killed predecessor left running. */
  prepare?(signal: AbortSignal): Promise<void>;
  /**
   * What a failing delivery of `event` is about (`order 42`), for a consumer whose failures are its
   * subject's own rather than its target's outage: the hand-off then warns that it holds every later event (hand-off.ts).
   */
  subjectOf?(event: StoredEvent): string | undefined;
}

/** A refusal that no retry will change: the event goes to the dead letters at once. */
export class PermanentRefusal extends Error {}

/** A failure whose answer asked for a pause before the next try (`Retry-After`): `waitMs`, as the ERP asked. */
export class AskedToWait extends Error {
  readonly waitMs: number;

  constructor(message: string, waitMs: number) {
    super(message);
    this.waitMs = waitMs;
  }
}

/** The statuses whose `Retry-After` is a pause asked for (RFC 9110 §10.2.3): too many requests, unavailable. */
const waitingStatuses: ReadonlySet<number> = new Set([429, 503]);

/**
 * The event as a consumer sends it. One stored before the receiver refused hostile shapes may be too deep to write
 * out; that will never change, so it is refused for good (a dead letter) instead of being tried again.
 */
export function eventText(event: StoredEvent): string {
  const { eventJson, ...stored } = event;
  try {
    if (eventJson === undefined) return JSON.stringify(stored);
    // The event as it came, in the place JSON.stringify gives `event`: its numbers as written, not as parsed.
    const text = JSON.stringify({ ...stored, event: rawEventMark });
    // The last: `event` is the last field, and the fields before it (a key made of the payload's id) may hold anything.
    const at = text.lastIndexOf(quotedRawEventMark);
    return `${text.slice(0, at)}${jsonOnOneLine(eventJson)}${text.slice(at + quotedRawEventMark.length)}`;
  } catch (error) {
    throw new PermanentRefusal(`the event cannot be written out as JSON (${(error as Error).message})`);
  }
}

/**
 * The event as it came, on one line: its numbers as written (an id past 2^53, a 19-digit EAN), which `event` holds
 * only as parsed doubles. The parsed event's JSON when the store gave no text.
 */
export function eventAsItCame(event: StoredEvent): string {
  return event.eventJson === undefined ? JSON.stringify(event.event) : jsonOnOneLine(event.eventJson);
}

/**
 * The event's text on one line, each record of `webhook inbox` and of a batch one NDJSON line: JSON has a line break
 * only as whitespace between its values (a string escapes its own), so taking them out changes no value. A
 * pretty-printed event, or one ending in the newline `echo` and `curl -d @file` send, is otherwise as it came: unlike
 * lib/one-line.ts's folds, no white space around a break is taken and nothing is escaped, as the event is data.
 */
function jsonOnOneLine(text: string): string {
  return text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]+/g, ' ').trim() : text;
}

/** Stands for the event's own text while the rest of the stored event is written; no event text can hold it. */
const rawEventMark = '\u0000b2bctl-event\u0000';
const quotedRawEventMark = JSON.stringify(rawEventMark);

/**
 * Statuses that say the ERP will never take this event as it is. 413 is the answer to this body (an ERP behind
 * nginx's default `client_max_body_size 1m`, a full-payload order of thousands of lines): it comes again at every
 * try, and tried for --give-up-after it held every later event for days (a user test).
 */
export const permanentStatuses: ReadonlySet<number> = new Set([400, 404, 409, 410, 413, 422]);

const forwardTimeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The fix of a failed POST to the ERP in its own flags' words (the API client's --base-url does not apply). */
function forwardProblemSentence(problem: NetworkProblem, timeoutMs: number, flags: UrlSource): string {
  if (forwardTimeoutCodes.has(problem.code) || problem.code === 'ETIMEDOUT' || problem.code === 'timed out')
    return flags.timeout === undefined
      ? `${problem.what}; the ERP has ${timeoutMs / 1000} s to answer: check that it runs`
      : `${problem.what}; the ERP has ${flags.timeout} (${timeoutMs / 1000} s) to answer: raise it for a slow ERP, or check that it runs`;
  return networkProblemSentence(problem);
}

/** The flags a receiver's hand-off is given its ERP with. */
const handOffFlags: UrlSource = { url: '--forward-to', timeout: '--forward-timeout' };

/**
 * POSTs each event as JSON to the ERP's own endpoint; any 2xx is success, within `timeoutMs` (--forward-timeout).
 * A failure names the flags the URL came with (`flags`: the receiver's by default).
 * With `batch` over 1 (--forward-batch), each POST carries a JSON array of up to that many events in store order,
 * taken or refused together. The events a hand-off has read ahead go through a thread of their own
 * (forward-thread.ts), unless a proxy is on the way: the proxy's client and its messages are this thread's.
 */
export function forwardTo(
  url: string,
  env?: ProxyEnvironment,
  timeoutMs = 30_000,
  batch = 1,
  { flags = handOffFlags, authorization }: { flags?: UrlSource; authorization?: string } = {},
): EventConsumer {
  // Built on first use: the URL is checked by the caller, and a consumer that never delivers opens nothing.
  let via: ReturnType<typeof dispatcherFor> | undefined;
  const connection = () => (via ??= dispatcherFor(new URL(url), { env }));
  // The ERP's credential goes as a header on every request (undici's request ignores user-info), so a retry, a
  // proxy or a replay carries it too.
  const target = withoutUserInfo(url);
  const credential: Record<string, string> = authorization === undefined ? {} : { authorization };
  const secrets = credentialsSent(url, authorization);
  // The thread's connections follow the rules of undici's (net/dispatcher.ts): one ERP, one set of rules.
  let thread: ForwardThread | undefined;
  const forwardThread = () =>
    (thread ??= new ForwardThread(target, timeoutMs, connectionRules(new URL(url), connection().route)));
  /** The error `deliver` throws for a failed request: the network problem in the words of the URL's flags. */
  const networkFailure = async (error: unknown) => {
    const problem = await explainNetworkProblem(
      error,
      new URL(url),
      connection().route,
      defaultConnectTimeoutMs,
      flags,
    );
    return new Error(forwardProblemSentence(problem, timeoutMs, flags), { cause: error });
  };
  const consumer: EventConsumer = {
    target: urlShownSafely(url),
    async deliver(event, signal) {
      const { dispatcher } = connection();
      const { headers, body } = forwardRequest([event], [eventText(event)], batch > 1);
      const answer = await request(target, {
        dispatcher,
        method: 'POST',
        headers: { ...headers, ...credential },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal,
      }).catch(async (error: unknown) => {
        throw signal.aborted ? error : await networkFailure(error);
      });
      const text = await answer.body.text();
      if (answer.statusCode < 200 || answer.statusCode > 299) {
        const retryAfter = headerText(answer.headers['retry-after']);
        const answeredAt = headerText(answer.headers.date);
        throw refusalOf({ status: answer.statusCode, body: text, retryAfter, answeredAt }, secrets);
      }
    },
    async deliverInOrder(events, signal, progress) {
      if (connection().route.kind === 'proxy') return deliverEach(consumer, events, signal, progress);
      const { counts, requests } = readAheadRequests(events, batch, credential);
      if (requests.length === 0) return deliverEach(consumer, events.slice(0, 1), signal);
      const told = progress && ((requestsTaken: number) => progress(eventsIn(counts, requestsTaken)));
      const outcome = await forwardThread().deliverInOrder(requests, signal, told);
      const taken = eventsIn(counts, outcome.taken);
      const { failure } = outcome;
      if (failure === undefined) return { taken };
      if (!('status' in failure)) {
        const error = Object.assign(new Error(failure.message), { code: failure.code });
        return { taken, failure: signal.aborted ? error : await networkFailure(error) };
      }
      const refusal = refusalOf(failure, secrets);
      const refused = counts[outcome.taken] ?? 1;
      if (!(refusal instanceof PermanentRefusal) || refused === 1) return { taken, failure: refusal };
      // A batch refused for good: some event in it is. Each is sent alone, in order, to find which.
      const more = progress && ((alone: number) => progress(taken + alone));
      const alone = await deliverEach(consumer, events.slice(taken, taken + refused), signal, more);
      return { taken: taken + alone.taken, failure: alone.failure };
    },
    close: async () => thread?.close(),
  };
  return consumer;
}

/** How many events the first `requests` of a run carry, `counts` holding each request's. */
function eventsIn(counts: readonly number[], requests: number): number {
  return counts.slice(0, requests).reduce((sum, count) => sum + count, 0);
}

/**
 * The POSTs of events read ahead, `batch` events each, with how many each carries. An event that cannot be written
 * out ends them: `deliver` refuses it, alone, after those before it.
 */
function readAheadRequests(
  events: StoredEvent[],
  batch: number,
  credential: Record<string, string>,
): { counts: number[]; requests: ForwardRequest[] } {
  const texts: string[] = [];
  for (const event of events) {
    try {
      texts.push(eventText(event));
    } catch {
      break;
    }
  }
  const counts: number[] = [];
  const requests: ForwardRequest[] = [];
  for (let first = 0; first < texts.length; first += batch) {
    const last = Math.min(first + batch, texts.length);
    counts.push(last - first);
    const made = forwardRequest(events.slice(first, last), texts.slice(first, last), batch > 1);
    requests.push({ ...made, headers: { ...made.headers, ...credential } });
  }
  return { counts, requests };
}

/**
 * What of its credential the ERP's refusal may quote back (an auth layer's "token X not valid"): the URL's password
 * and query values, the header's token or Basic password. Masked before the refusal is logged or kept as a dead
 * letter's error.
 */
export function credentialsSent(url: string, authorization: string | undefined): string[] {
  return [...secretsOfUrl(url), ...secretsOfAuthorization(authorization)];
}

/** One POST: an event as it is, or (`asArray`, --forward-batch) events as a JSON array, with their headers. */
function forwardRequest(events: StoredEvent[], texts: string[], asArray: boolean): ForwardRequest {
  const body = asArray ? `[${texts.join(',')}]` : (texts[0] as string);
  const headers: Record<string, string> = asArray
    ? { 'content-type': 'application/json', 'x-b2bctl-events': String(events.length) }
    : forwardHeaders(events[0] as StoredEvent);
  return { headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, body };
}

function forwardHeaders(event: StoredEvent): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-b2bctl-kind': event.kind,
    // The ERP can use it to recognise an event it already took, should a delivery be repeated after a crash.
    'x-b2bctl-delivery-id': event.deliveryId,
  };
}

/**
 * The ERP's answer other than 2xx, as an error: for good when the status says it will never take the event. The
 * `secrets` it was sent are masked before the answer is cut to one bounded line, so no piece of one is left at the cut.
 */
function refusalOf(
  answer: { status: number; body: string; retryAfter?: string | undefined; answeredAt?: string | undefined },
  secrets: readonly string[],
): Error {
  const { status } = answer;
  // On one line: the refusal is logged, tied to its event, as one line of the receiver's log (an HTML error page
  // quoted as it came would leave a dozen orphan lines, each taken for an event of its own).
  const quoted = quotedAnswer(redactSecrets(answer.body, secrets));
  const message = `HTTP ${status}${quoted ? `: ${quoted}` : ''}`;
  if (permanentStatuses.has(status)) return new PermanentRefusal(message);
  // A pause the ERP asks for (429, 503 with Retry-After) is waited out, as b2bctl waits the platform's: tried again
  // after the back-off's 8 s, an ERP asking for 120 s was hammered (a user test).
  const waitMs = waitingStatuses.has(status)
    ? parseRetryAfter(answer.retryAfter, Date.now(), answer.answeredAt)
    : undefined;
  return waitMs === undefined ? new Error(message) : new AskedToWait(message, waitMs);
}

/** `deliverInOrder` by `deliver`, one event at a time on this thread, telling `progress` of each one taken. */
async function deliverEach(
  consumer: EventConsumer,
  events: StoredEvent[],
  signal: AbortSignal,
  progress?: (taken: number) => void,
): Promise<{ taken: number; failure?: Error }> {
  for (const [index, event] of events.entries()) {
    try {
      await consumer.deliver(event, signal);
    } catch (error) {
      return { taken: index, failure: error as Error };
    }
    progress?.(index + 1);
  }
  return { taken: events.length };
}

const runningGroups = new Set<number>();
let exitGuard = false;

/** Kills a command's whole process group (the shell and whatever it started). */
function killGroup(child: ChildProcess): void {
  if (child.pid !== undefined) killProcessGroup(child.pid);
}

/**
 * How long after a command's exit what it printed is still read: output written before the exit is in the pipe by
 * then, and a pipe a background child holds open would otherwise never end.
 */
const outputGraceMs = 250;

/** The exit code by which a command refuses an event for good (sysexits' EX_DATAERR): a dead letter at once. */
export const refusedForGoodExitCode = 65;

/**
 * Runs a shell command per event with the event on stdin and a clean environment (exec-environment.ts); exit 0 is
 * success, exit 65 a refusal for good (as `--forward-to` takes a 422), any other a failure tried again. What it
 * prints is kept (its last lines, command-output.ts): a failure's message ends with it, and after a success each
 * kept line goes to `say`, named by event. Each run is its own process group, killed whole at `timeoutMs`, on
 * shutdown, and when this process exits however it exits; recorded in `runs` while it runs, so that a successor
 * of a receiver killed by SIGKILL waits for it (command-runs.ts).
 */
export function execCommand(
  command: string,
  say: (line: string) => void,
  timeoutMs: number,
  environment: ExecEnvironment = { parent: process.env, names: [] },
  runs?: CommandRuns,
): EventConsumer {
  if (!exitGuard) {
    exitGuard = true;
    process.once('exit', () => {
      for (const group of runningGroups) killProcessGroup(group);
    });
  }
  const target = `exec ${commandShownSafely(command)}`;
  const secrets = secretsGivenTo(environment, command);
  return {
    target,
    prepare: runs ? (signal) => runs.settle(signal) : undefined,
    deliver: (event, signal) =>
      runForEvent(command, event, signal, {
        timeoutMs,
        environment,
        runs,
        output: new CommandOutput(secrets),
        said: (line) => say(`${target}: ${event.kind} event ${event.id} printed${line}`),
      }),
  };
}

/** What one run of an `--exec` command is given besides its command line and event. */
interface RunSettings {
  timeoutMs: number;
  environment: ExecEnvironment;
  runs: CommandRuns | undefined;
  /** Keeps what it prints. */
  output: CommandOutput;
  /** Takes each line it printed, after a success. */
  said: (line: string) => void;
}

/** One run of an `--exec` command for `event`: resolves when it took the event, rejects with its failure. */
function runForEvent(command: string, event: StoredEvent, signal: AbortSignal, settings: RunSettings): Promise<void> {
  const { timeoutMs, runs, output } = settings;
  return new Promise<void>((resolve, reject) => {
    const text = eventText(event);
    // The command's own output is kept, not passed through: stdout carries the receiver's own lines
    // (--log-events), and stderr its log, one line each in its format.
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: commandEnvironment(settings.environment, event),
    });
    const group = child.pid;
    if (group !== undefined) runningGroups.add(group);
    let ending = '';
    const end = (why: string) => {
      ending = why;
      killGroup(child);
    };
    // The event goes on stdin once the group is on record: a command that reads first starts no work unrecorded.
    const recorded =
      runs && group !== undefined
        ? runs.started(group, event).then(
            () => true,
            (error: Error) => {
              end(`its process group could not be recorded (${error.message}); it was killed`);
              return false;
            },
          )
        : Promise.resolve(true);
    const timer = setTimeout(
      () => end(`timed out after ${timeoutMs / 1000} s; its process group was killed`),
      timerDelay(timeoutMs),
    );
    const onAbort = () => end('stopped by shutdown');
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
    child.stdin.on('error', () => undefined); // a command that does not read its stdin is not a failure
    child.on('error', reject);
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    const settle = (code: number | null, exitSignal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(grace);
      if (group !== undefined) runningGroups.delete(group);
      // The command ended: anything it left in its group goes too, and with it the pipes it held.
      killGroup(child);
      child.stdout.destroy();
      child.stderr.destroy();
      if (runs && group !== undefined) void recorded.then(() => runs.ended(group)).catch(() => undefined);
      const failure = runOutcome({ code, exitSignal, ending }, output, settings.said);
      if (failure === undefined) resolve();
      else reject(failure);
    };
    // The command's exit is its answer, as systemd or a CI runner judge a step: a child it left in the background
    // holding its stdout (`nohup ./notify.sh &`) kept 'close' from coming, and a command that exited 0 was timed
    // out, killed and run again until it was a dead letter (a user test). What it printed before exiting is read
    // for a short grace after the exit, or until its pipes close if that comes first.
    child.on('exit', (code, exitSignal) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      grace = setTimeout(() => settle(code, exitSignal), outputGraceMs);
      child.on('close', () => settle(code, exitSignal));
    });
    void recorded.then((ok) => ok && child.stdin.end(`${text}\n`));
  });
}

/**
 * How a run ended: undefined when the event was taken (then what the command printed goes to `said`, a line each),
 * else the failure, its last lines at the end: a refusal for good at exit 65, one tried again otherwise.
 */
function runOutcome(
  run: { code: number | null; exitSignal: NodeJS.Signals | null; ending: string },
  output: CommandOutput,
  said: (line: string) => void,
): Error | undefined {
  const { lines, dropped } = output.finish();
  if (run.code === 0 && !run.ending) {
    if (dropped > 0) said(` ${dropped} more line${dropped === 1 ? '' : 's'} before these.`);
    for (const line of lines) said(`: ${line}`);
    return undefined;
  }
  const reason = failureWithOutput(
    run.ending || (run.exitSignal ? `killed by ${run.exitSignal}` : `exit code ${run.code}`),
    lines,
  );
  return run.code === refusedForGoodExitCode && !run.ending ? new PermanentRefusal(reason) : new Error(reason);
}
