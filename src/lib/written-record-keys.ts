import { createHash } from 'node:crypto';

/**
 * How many records a listing read remembers, to write each once (`sellers list --all`, `api --paginate`): every
 * record written, up to this many. A key is a 16-byte digest held as a one-byte string (about 53 bytes a record in a
 * Set, measured on Node 24: 53 MB at the bound, 5 MB for 100,000 records). Past it the oldest are forgotten one by
 * one, and the read says so at its end: a copy of one of those answered again would be written again.
 */
export const rememberedRecords = 1_000_000;

/**
 * The records a listing read has written, by their keys (recordKey): all of them, not the last pages only. An item
 * added at the head of a listing paged by offset between two requests moves every later item down one, so the next
 * page answers again as many items as were added; a window counted in pages missed a shift longer than it (3 items
 * added with pages of one wrote 2 records twice, exit 0, no word: a user test). Remembering every record written catches a
 * shift of any length, up to `bound` records.
 */
export class WrittenRecordKeys {
  private readonly keys = new Set<string>();
  /** How many keys were forgotten to stay within the bound. */
  forgotten = 0;

  readonly bound: number;
  constructor(bound: number = rememberedRecords) {
    this.bound = bound;
  }

  /** Whether a record of `key` was written. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Notes `key` as written, forgetting the oldest past the bound. */
  note(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    if (this.keys.size <= this.bound) return;
    const oldest = this.keys.values().next().value as string;
    this.keys.delete(oldest);
    this.forgotten++;
  }

  /**
   * The items of one page not written by an earlier page, each then noted as written. An item is skipped only when an
   * earlier page wrote the same record (its `idOf`, and the whole record: recordKey), as a listing shifted between two
   * requests answers it again. Two items of one answer are both written, whatever their ids (no shift puts one item
   * twice in one answer: a customer listed once per branch), and so is an item whose id was written with another
   * record (updated meanwhile, or another record sharing the id: dropped, one would be lost with exit 0). An item with
   * no id cannot be told from another one and is always written.
   */
  unwritten<T>(items: readonly T[], idOf: (item: T) => string | undefined): T[] {
    const keys = items.map((item) => {
      const id = idOf(item);
      return id === undefined ? undefined : recordKey(id, item);
    });
    // Judged against the earlier pages before this page's items are noted.
    const unwritten = items.filter((_, index) => {
      const key = keys[index];
      return key === undefined || !this.has(key);
    });
    for (const key of keys) if (key !== undefined) this.note(key);
    return unwritten;
  }

  /** How many keys are kept now: at most the bound. */
  get size(): number {
    return this.keys.size;
  }
}

/**
 * The key of a record written by a listing read (`api --paginate`, `sellers list --all`): a digest of its id and of
 * the whole record, so that only the same record answered again is a repeat, never another record sharing its id.
 * 16 bytes are 128 bits: two different records sharing a key is out of reach in a million. Made from the digest's
 * bytes as a string of its own: a slice of a longer string (the base64 digest cut to 22 characters, as it was) keeps
 * the whole longer string alive beside it, which more than doubled a key's memory (117 bytes a record, against 53).
 */
export function recordKey(id: string, record: unknown): string {
  return createHash('sha256')
    .update(`${id}\n${JSON.stringify(record)}`)
    .digest()
    .toString('latin1', 0, 16);
}

/** The warning of a read that wrote more records than it remembers (WrittenRecordKeys' bound). */
export function forgottenRecordsLine(written: WrittenRecordKeys, itemsWord: string): string {
  return `warning: the read wrote more ${itemsWord} than b2bctl remembers (${written.bound.toLocaleString('en-US')}); a copy of one of the first ${written.forgotten.toLocaleString('en-US')}, answered again by a listing that moved, would have been written again.`;
}
