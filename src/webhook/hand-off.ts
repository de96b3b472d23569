import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { dispatcherFor } from '../net/dispatcher.js';
import { explainNetworkProblem, networkProblemSentence } from '../net/network-error.js';
import type { ProxyEnvironment } from '../net/proxy-route.js';
import type { Clock } from '../clock.js';
import { type Inbox, type InboxRecord, readInbox } from './inbox.js';

/** Something that takes one stored event: throws when it did not (then the same event is tried again). */
export interface EventConsumer {
  /** Shown in logs and used to name the remembered position, such as `forward to http://erp/hook`. */
  name: string;
  deliver(record: InboxRecord): Promise<void>;
}

/** POSTs each event's inbox record as JSON to the ERP's own endpoint; any 2xx is success. */
export function forwardTo(url: string, env?: ProxyEnvironment): EventConsumer {
  // Built on first use: the URL is checked by the caller, and a consumer that never delivers opens nothing.
  let via: ReturnType<typeof dispatcherFor> | undefined;
  return {
    name: `forward to ${url}`,
    async deliver(record) {
      via ??= dispatcherFor(new URL(url), { env });
      const { dispatcher, route } = via;
      const answer = await request(url, {
        dispatcher,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-b2bctl-kind': record.kind,
          // The ERP can use it to recognise an event it already took, should a delivery be repeated after a crash.
          'x-b2bctl-delivery-id': record.deliveryId,
        },
        body: JSON.stringify(record),
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      }).catch(async (error: unknown) => {
        const problem = await explainNetworkProblem(error, new URL(url), route, 10_000);
        throw new Error(networkProblemSentence(problem), { cause: error });
      });
      const text = await answer.body.text();
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        throw new Error(`HTTP ${answer.statusCode}${text.trim() ? `: ${text.trim().slice(0, 200)}` : ''}`);
      }
    },
  };
}

/** Runs a shell command once per event with the event's inbox record on stdin; exit 0 is success. */
export function execCommand(command: string, stderr: NodeJS.WritableStream): EventConsumer {
  return {
    name: `exec ${command}`,
    deliver: (record) =>
      new Promise<void>((resolve, reject) => {
        // The command's own output goes to stderr: stdout carries this receiver's one line per event.
        const child = spawn(command, {
          shell: true,
          stdio: ['pipe', 'pipe', 'pipe'],
          env: { ...process.env, B2BCTL_EVENT_KIND: record.kind, B2BCTL_DELIVERY_ID: record.deliveryId },
        });
        child.stdout.pipe(stderr, { end: false });
        child.stderr.pipe(stderr, { end: false });
        child.on('error', reject);
        child.stdin.on('error', () => undefined); // a command that does not read its stdin is not a failure
        child.on('close', (code, signal) =>
          code === 0 ? resolve() : reject(new Error(signal ? `killed by ${signal}` : `exit code ${code}`)),
        );
        child.stdin.end(`${JSON.stringify(record)}\n`);
      }),
  };
}

export interface HandOffOptions {
  clock: Clock;
  log: (message: string) => void;
  /** First wait after a failure; doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * Hands the inbox's events to a consumer one at a time, in the order they were stored, retrying each one until it
 * is taken, and remembering (in a position file beside the inbox) the byte offset after the last one taken, so a
 * restart resumes where it stopped: an event is handed on at least once, and exactly once unless the process dies
 * between the consumer's success and the position's write.
 */
export class HandOff {
  private readonly positionFile: string;
  private wake: (() => void) | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly inbox: Inbox,
    private readonly consumer: EventConsumer,
    private readonly options: HandOffOptions,
  ) {
    const digest = createHash('sha256').update(consumer.name).digest('hex').slice(0, 12);
    this.positionFile = join(inbox.directory, `position-${digest}.json`);
  }

  start(): void {
    const unsubscribe = this.inbox.onCommitted(() => this.wake?.());
    this.running = this.loop().finally(unsubscribe);
  }

  /** Stops after the delivery in progress (an event half handed on is handed on again next time). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    let position = await this.readPosition();
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const end = this.inbox.committedSize;
      if (position >= end) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          if (this.inbox.committedSize > position || signal.aborted) resolve();
        });
        continue;
      }
      for await (const { record, end: after } of readInbox(this.inbox.directory, position, end)) {
        if (!(await this.deliverWithRetries(record))) return;
        position = after;
        await this.writePosition(position);
      }
    }
  }

  private async deliverWithRetries(record: InboxRecord): Promise<boolean> {
    const { clock, log } = this.options;
    let backoff = this.options.initialBackoffMs ?? 500;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.consumer.deliver(record);
        return true;
      } catch (error) {
        if (this.stopping.signal.aborted) return false;
        log(
          `${this.consumer.name}: ${record.kind} event ${record.deliveryId} failed (attempt ${attempt}: ${(error as Error).message}); trying again in ${Math.round(backoff / 100) / 10} s.`,
        );
        try {
          await clock.sleep(backoff * (0.8 + Math.random() * 0.4), this.stopping.signal);
        } catch {
          return false;
        }
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 30_000);
      }
    }
  }

  private async readPosition(): Promise<number> {
    try {
      const saved = JSON.parse(await readFile(this.positionFile, 'utf8')) as { offset?: unknown };
      return typeof saved.offset === 'number' ? saved.offset : 0;
    } catch {
      return 0;
    }
  }

  private async writePosition(offset: number): Promise<void> {
    const temporary = `${this.positionFile}.tmp`;
    await writeFile(temporary, `${JSON.stringify({ consumer: this.consumer.name, offset })}\n`, {
      mode: 0o600,
      flush: true,
    });
    await rename(temporary, this.positionFile);
  }
}
