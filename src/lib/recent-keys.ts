import { createHash } from 'node:crypto';

/**
 * The keys noted in the last `pages` pages of a listing read page by page, the page being read among them: an older
 * page is forgotten whole when a new one starts. Memory holds at most `pages` pages of keys (a page is already held
 * whole anyway), however many pages the read goes through.
 */
export class RecentPageKeys {
  /** The oldest page kept first, the page being read last. */
  private readonly kept: Set<string>[] = [new Set()];

  constructor(readonly pages: number) {}

  /** Whether `key` was noted in one of the pages kept. */
  has(key: string): boolean {
    return this.kept.some((page) => page.has(key));
  }

  /** Notes `key` in the page being read. */
  note(key: string): void {
    (this.kept.at(-1) as Set<string>).add(key);
  }

  /** Starts the next page, forgetting the oldest past the bound. */
  turnPage(): void {
    this.kept.push(new Set());
    if (this.kept.length > this.pages) this.kept.shift();
  }

  /** How many keys are kept now: at most `pages` times the longest page. */
  get size(): number {
    return this.kept.reduce((total, page) => total + page.size, 0);
  }
}

/**
 * How many pages of ids a listing read remembers, to write each item once (`sellers list --all`, `api --paginate`):
 * an item added at the head of a listing paged by offset between two requests moves every later item down one, so
 * the next page starts with items of the page before. An item comes back as far down as items were added between two
 * requests, a few at most (a second apart; sales reps are added by hand), so the page being read and the two before
 * it catch a shift of up to two whole pages, and memory stays three pages whatever the listing's length. An item
 * pushed down further than that between two requests is written again.
 */
export const rememberedPages = 3;

/**
 * The key of a record written by a listing read (`api --paginate`, `sellers list --all`): its id and a digest of the
 * whole record, so that only the same record answered again is a repeat, never another record sharing its id.
 */
export function recordKey(id: string, record: unknown): string {
  return `${id}\n${createHash('sha256').update(JSON.stringify(record)).digest('base64')}`;
}
