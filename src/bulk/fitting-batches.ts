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
  /** Requests answered (or refused) of more than one item, and the one answer refusing every such request whole. */
  private readonly wholeRefusals = { requests: 0, refused: 0, answer: undefined as string | undefined, mixed: false };

  private readonly warn: (message: string) => void;
  constructor(startSize: number, warn: (message: string) => void) {
    this.warn = warn;

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
        if (part.length > 1) this.wholeRefusals.requests++;
        start += part.length;
      } catch (error) {
        if (!(error instanceof PlatformError && error.status === 413) || part.length === 1) {
          if (part.length > 1) this.refusedWhole(error);
          throw error;
        }
        this.shrink(part.length, bytesOf(part));
      }
    }
    return results;
  }

  /**
   * A request of several items refused whole: by a 4xx other than 401, 403, 408 and 429 (the credentials, a time-out,
   * the pace), counted with its answer, so that a run whose every request got the same one can be told.
   */
  private refusedWhole(error: unknown): void {
    this.wholeRefusals.requests++;
    const status = error instanceof PlatformError ? error.status : 0;
    if (status < 400 || status > 499 || [401, 403, 408, 429].includes(status)) return;
    this.wholeRefusals.refused++;
    const answer = (error as PlatformError).message;
    if (this.wholeRefusals.answer !== undefined && this.wholeRefusals.answer !== answer)
      this.wholeRefusals.mixed = true;
    this.wholeRefusals.answer ??= answer;
  }

  /**
   * The line of a run whose every request (two at least) of several items was refused whole with the same 4xx: a
   * platform that takes fewer items per request than were sent answers so (`422 batch must hold 1 to 100 items`), and
   * the records had nothing to fix, so feeding the errors file back at the same size fails again (a user test). The
   * platform's words are quoted, never read: b2bctl cannot know the size it takes.
   */
  wholeRefusalLine(): string | undefined {
    const { requests, refused, answer, mixed } = this.wholeRefusals;
    if (refused < 2 || refused !== requests || mixed || answer === undefined) return undefined;
    return `warning: every request of the run (${requests}, of up to ${countOf(this.size, 'items')}) was refused whole with the same answer: ${answer}. If the platform takes fewer items per request than that, the records may have nothing to fix: add --batch-size N (what it takes) to the command that feeds the errors file back.`;
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
