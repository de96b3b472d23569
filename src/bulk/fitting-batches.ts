import { PlatformError } from '../base/errors.js';
import { countOf } from '../lib/plural.js';

/** What a run learnt from 413 answers, for its summary. */
export interface BodyLimitNote {
  /** Items per request the run started with and ended with. */
  from: number;
  to: number;
  /** Requests refused with 413 (their items were sent again in smaller requests). */
  refused: number;
  /** The largest body refused, in bytes. */
  largestRefusedBytes: number;
}

/**
 * Sends batches no larger than what the platform's front accepts: a batch refused with HTTP 413 (a proxy's
 * `client_max_body_size`) halves the size for the rest of the run and its items are sent again in halves.
 */
export class FittingBatches {
  private size: number;
  private readonly note: BodyLimitNote;

  constructor(
    startSize: number,
    private readonly warn: (message: string) => void,
  ) {
    this.size = startSize;
    this.note = { from: startSize, to: startSize, refused: 0, largestRefusedBytes: 0 };
  }

  /** Sends `items` in requests of at most the current size; `bytesOf` measures a request's body for messages. */
  async send<Item, Result>(
    items: readonly Item[],
    sendRequest: (items: Item[]) => Promise<Result[]>,
    bytesOf: (items: readonly Item[]) => number,
  ): Promise<Result[]> {
    const results: Result[] = [];
    for (let start = 0; start < items.length;) {
      const part = items.slice(start, start + this.size);
      try {
        results.push(...(await sendRequest(part)));
        start += part.length;
      } catch (error) {
        if (!(error instanceof PlatformError && error.status === 413) || part.length === 1) throw error;
        this.shrink(part.length, bytesOf(part));
      }
    }
    return results;
  }

  /** What happened, when a 413 changed the size; undefined when every request fit. */
  summary(): BodyLimitNote | undefined {
    return this.note.refused === 0 ? undefined : { ...this.note };
  }

  private shrink(refusedSize: number, bytes: number): void {
    this.note.refused++;
    this.note.largestRefusedBytes = Math.max(this.note.largestRefusedBytes, bytes);
    // A request sent at the old size by a concurrent batch must not halve the size twice.
    if (refusedSize > this.size) return;
    this.size = Math.max(1, Math.floor(refusedSize / 2));
    this.note.to = this.size;
    this.warn(
      `warning: a request of ${countOf(refusedSize, 'items')} (${bytes} bytes) was refused as too large (HTTP 413, usually a proxy's body limit); sending ${this.size} per request for the rest of the run.`,
    );
  }
}

/** The summary line of a run whose batches were made smaller. */
export function bodyLimitLine(note: BodyLimitNote): string {
  return `warning: ${countOf(note.refused, 'requests')} refused as too large (HTTP 413, up to ${note.largestRefusedBytes} bytes) were sent again in smaller ones: the run went from ${note.from} to ${note.to} items per request. Pass --batch-size ${note.to} next time.`;
}
