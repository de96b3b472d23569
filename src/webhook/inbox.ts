import { createReadStream } from 'node:fs';
import { mkdir, open, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { WebhookKind } from '../domain/webhook-events.js';

/** One line of the inbox: when and what was received, and the event exactly as sent. */
export interface InboxRecord {
  receivedAt: string;
  kind: WebhookKind;
  deliveryId: string;
  /** The de-duplication key (domain/webhook-events.ts). */
  key: string;
  /** What did not match the document; empty when the payload matched. */
  flags: string[];
  event: unknown;
}

export const inboxFileName = 'events.ndjson';

export interface InboxOptions {
  /** False fsyncs each event on its own (the benchmark's comparison); true shares one fsync among concurrent events. */
  groupCommit?: boolean;
  /** How many recent de-duplication keys are remembered, so memory stays flat however long the receiver runs. */
  deduplicationWindow?: number;
  /** Told what was set aside on opening. */
  log?: (message: string) => void;
}

interface PendingLine {
  bytes: Buffer;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The append-only NDJSON inbox. `append` resolves only once the line is on disk (written and fdatasync'ed), so
 * an event is answered 2xx only when a crash can no longer lose it. Concurrent appends share one write and one
 * fdatasync (group commit): while one batch is being synced the next one gathers, so the cost of a sync is
 * spread over every event that arrived during the previous one.
 */
export class Inbox {
  readonly file: string;
  private readonly pending: PendingLine[] = [];
  private flushing: Promise<void> | undefined;
  private readonly seen = new Map<string, true>();
  private readonly committedListeners = new Set<() => void>();

  private constructor(
    readonly directory: string,
    private readonly handle: FileHandle,
    /** Bytes of the file that are complete lines on disk. */
    private committed: number,
    private readonly options: InboxOptions,
  ) {
    this.file = join(directory, inboxFileName);
  }

  /** Opens (creating) the inbox in `directory`: a torn last line is set aside, recent keys are loaded. */
  static async open(directory: string, options: InboxOptions = {}): Promise<Inbox> {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const file = join(directory, inboxFileName);
    const handle = await open(file, 'a+', 0o600).then(async (created) => {
      await created.close();
      return open(file, 'r+');
    });
    try {
      const size = await setAsideTornTail(handle, directory, options.log);
      const inbox = new Inbox(directory, handle, size, options);
      for await (const { record } of readInbox(directory, 0, size)) inbox.remember(record.key);
      return inbox;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Bytes of complete, synced lines: a reader may read up to here. */
  get committedSize(): number {
    return this.committed;
  }

  /** Whether an event with this key is already stored (within the remembered window). */
  has(key: string): boolean {
    return this.seen.has(key);
  }

  /** Appends one record; resolves once it is synced to disk, rejects (nothing kept) when it could not be. */
  async append(record: InboxRecord, rawEvent?: string): Promise<void> {
    const line = rawEvent === undefined ? JSON.stringify(record) : recordLine(record, rawEvent);
    await new Promise<void>((resolve, reject) => {
      this.pending.push({ bytes: Buffer.from(`${line}\n`), resolve, reject });
      this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
    });
    this.remember(record.key);
    for (const listener of this.committedListeners) listener();
  }

  /** Calls `listener` after each commit (the hand-off follows the file with it). */
  onCommitted(listener: () => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.handle.close();
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.options.groupCommit === false ? this.pending.splice(0, 1) : this.pending.splice(0);
      const bytes = batch.length === 1 ? (batch[0] as PendingLine).bytes : Buffer.concat(batch.map((p) => p.bytes));
      try {
        let written = 0;
        while (written < bytes.length) {
          const result = await this.handle.write(bytes, written, bytes.length - written, this.committed + written);
          written += result.bytesWritten;
        }
        await this.handle.datasync();
        this.committed += bytes.length;
        for (const line of batch) line.resolve();
      } catch (error) {
        // A half-written batch (disk full) must not stay in front of the next one: cut back to the last good line.
        await this.handle.truncate(this.committed).catch(() => undefined);
        for (const line of batch) line.reject(error);
      }
    }
  }

  private remember(key: string): void {
    this.seen.set(key, true);
    if (this.seen.size > (this.options.deduplicationWindow ?? 100_000)) {
      this.seen.delete(this.seen.keys().next().value as string);
    }
  }
}

/**
 * The inbox line of a record with the event's own text in place of `event`, so the event is stored byte for byte
 * as sent. Line breaks in JSON text can only be whitespace between tokens (inside strings they must be escaped),
 * so turning them into spaces keeps one event on one line without changing it.
 */
function recordLine(record: InboxRecord, rawEvent: string): string {
  const withoutEvent: Partial<InboxRecord> = { ...record };
  delete withoutEvent.event;
  return `${JSON.stringify(withoutEvent).slice(0, -1)},"event":${rawEvent.trim().replace(/[\r\n]+/g, ' ')}}`;
}

/**
 * A crash can leave the last line half written (no final newline). That tail was never answered 2xx (its sync
 * had not finished), so it is moved to `torn-<time>.ndjson` for a person to look at and cut from the inbox.
 * Returns the size of the complete lines.
 */
async function setAsideTornTail(handle: FileHandle, directory: string, log?: (message: string) => void) {
  const { size } = await handle.stat();
  let end = size;
  const chunk = Buffer.alloc(64 * 1024);
  let lastNewline = -1;
  while (end > 0 && lastNewline < 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index >= 0) lastNewline = start + index;
    end = start;
  }
  const complete = lastNewline + 1;
  if (complete === size) return size;
  const torn = Buffer.alloc(size - complete);
  await handle.read(torn, 0, torn.length, complete);
  const aside = join(directory, `torn-${new Date().toISOString().replace(/[:.]/g, '-')}.ndjson`);
  await writeFile(`${aside}.tmp`, torn, { mode: 0o600, flush: true });
  await rename(`${aside}.tmp`, aside);
  await handle.truncate(complete);
  await handle.datasync();
  log?.(
    `The inbox ended with a torn line of ${torn.length} bytes (a crash while writing it; it was never acknowledged): set aside in ${aside}.`,
  );
  return complete;
}

/** The records of an inbox from byte `from` up to byte `to` (default: the end), each with the offset after it. */
export async function* readInbox(
  directory: string,
  from = 0,
  to?: number,
): AsyncGenerator<{ record: InboxRecord; end: number }> {
  if (to !== undefined && to <= from) return;
  const stream = createReadStream(join(directory, inboxFileName), {
    start: from,
    end: to === undefined ? undefined : to - 1,
  });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let offset = from;
  for await (const line of lines) {
    offset += Buffer.byteLength(line) + 1;
    if (line.trim() === '') continue;
    let record: InboxRecord;
    try {
      record = JSON.parse(line) as InboxRecord;
    } catch {
      // Only the last line can be incomplete (being written by a running receiver, or torn before its restart).
      return;
    }
    yield { record, end: offset };
  }
}
