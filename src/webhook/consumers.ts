import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'undici';
import { dispatcherFor } from '../net/dispatcher.js';
import { explainNetworkProblem, type NetworkProblem, networkProblemSentence } from '../net/network-error.js';
import type { ProxyEnvironment } from '../net/proxy-route.js';
import { commandShownSafely, urlShownSafely } from '../lib/shown-target.js';
import type { CommandRuns } from './command-runs.js';
import { commandEnvironment, type ExecEnvironment } from './exec-environment.js';
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
  /** Called once before the first delivery: settles what a killed predecessor left running. */
  prepare?(signal: AbortSignal): Promise<void>;
}

/** A refusal that no retry will change: the event goes to the dead letters at once. */
export class PermanentRefusal extends Error {}

/**
 * The event as a consumer sends it. One stored before the receiver refused hostile shapes may be too deep to write
 * out; that will never change, so it is refused for good (a dead letter) instead of being tried again.
 */
export function eventText(event: StoredEvent): string {
  try {
    return JSON.stringify(event);
  } catch (error) {
    throw new PermanentRefusal(`the event cannot be written out as JSON (${(error as Error).message})`);
  }
}

/** Statuses that say the ERP will never take this event as it is. */
export const permanentStatuses: ReadonlySet<number> = new Set([400, 404, 409, 410, 422]);

const forwardTimeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The fix of a failed POST to the ERP in its own flags' words (the API client's --base-url does not apply). */
function forwardProblemSentence(problem: NetworkProblem, timeoutMs: number): string {
  if (forwardTimeoutCodes.has(problem.code) || problem.code === 'ETIMEDOUT' || problem.code === 'timed out')
    return `${problem.what}; the ERP has --forward-timeout (${timeoutMs / 1000} s) to answer: raise it for a slow ERP, or check that it runs`;
  return networkProblemSentence(problem);
}

/** POSTs each event as JSON to the ERP's own endpoint; any 2xx is success, within `timeoutMs` (--forward-timeout). */
export function forwardTo(url: string, env?: ProxyEnvironment, timeoutMs = 30_000): EventConsumer {
  // Built on first use: the URL is checked by the caller, and a consumer that never delivers opens nothing.
  let via: ReturnType<typeof dispatcherFor> | undefined;
  return {
    target: urlShownSafely(url),
    async deliver(event, signal) {
      via ??= dispatcherFor(new URL(url), { env });
      const { dispatcher, route } = via;
      const answer = await request(url, {
        dispatcher,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-b2bctl-kind': event.kind,
          // The ERP can use it to recognise an event it already took, should a delivery be repeated after a crash.
          'x-b2bctl-delivery-id': event.deliveryId,
        },
        body: eventText(event),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal,
      }).catch(async (error: unknown) => {
        if (signal.aborted) throw error;
        const problem = await explainNetworkProblem(error, new URL(url), route, 10_000, {
          url: '--forward-to',
          timeout: '--forward-timeout',
        });
        throw new Error(forwardProblemSentence(problem, timeoutMs), { cause: error });
      });
      const text = await answer.body.text();
      if (answer.statusCode >= 200 && answer.statusCode < 300) return;
      const message = `HTTP ${answer.statusCode}${text.trim() ? `: ${text.trim().slice(0, 200)}` : ''}`;
      throw permanentStatuses.has(answer.statusCode) ? new PermanentRefusal(message) : new Error(message);
    },
  };
}

const runningGroups = new Set<number>();
let exitGuard = false;

/** Kills a command's whole process group (the shell and whatever it started). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs a shell command per event with the event on stdin and a clean environment (exec-environment.ts); exit 0 is
 * success. Each run is its own process group, killed whole at `timeoutMs`, on shutdown, and when this process
 * exits however it exits; recorded in `runs` while it runs, so that a successor of a receiver killed by SIGKILL
 * waits for it (command-runs.ts).
 */
export function execCommand(
  command: string,
  stderr: NodeJS.WritableStream,
  timeoutMs: number,
  environment: ExecEnvironment = { parent: process.env, names: [] },
  runs?: CommandRuns,
): EventConsumer {
  if (!exitGuard) {
    exitGuard = true;
    process.once('exit', () => {
      for (const group of runningGroups) killGroupById(group);
    });
  }
  return {
    target: `exec ${commandShownSafely(command)}`,
    prepare: runs ? (signal) => runs.settle(signal) : undefined,
    deliver: (event, signal) =>
      new Promise<void>((resolve, reject) => {
        const text = eventText(event);
        // The command's own output goes to stderr: stdout carries the receiver's own lines (--log-events).
        const child = spawn(command, {
          shell: true,
          detached: true,
          stdio: ['pipe', 'pipe', 'pipe'],
          env: commandEnvironment(environment, event),
        });
        if (child.pid !== undefined) runningGroups.add(child.pid);
        const group = child.pid;
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
        let ending = '';
        const end = (why: string) => {
          ending = why;
          killGroup(child);
        };
        const timer = setTimeout(
          () => end(`timed out after ${timeoutMs / 1000} s; its process group was killed`),
          timeoutMs,
        );
        const onAbort = () => end('stopped by shutdown');
        signal.addEventListener('abort', onAbort, { once: true });
        child.stdout.pipe(stderr, { end: false });
        child.stderr.pipe(stderr, { end: false });
        child.stdin.on('error', () => undefined); // a command that does not read its stdin is not a failure
        child.on('error', reject);
        child.on('close', (code, exitSignal) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (child.pid !== undefined) runningGroups.delete(child.pid);
          // The shell ended: anything it left in its group goes too.
          killGroup(child);
          if (runs && group !== undefined) void recorded.then(() => runs.ended(group)).catch(() => undefined);
          if (code === 0 && !ending) resolve();
          else reject(new Error(ending || (exitSignal ? `killed by ${exitSignal}` : `exit code ${code}`)));
        });
        void recorded.then((ok) => ok && child.stdin.end(`${text}\n`));
      }),
  };
}

function killGroupById(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
