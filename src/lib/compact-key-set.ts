/** Dense (85% full) and grown by a quarter: 15.5 MB at a million keys, where growth by half took 18.2 MB. */
const maxLoad = 0.85;
const growth = 1.25;

/**
 * Tables the keys are spread over by their hash's top bits. One table of a million keys, grown by
 * half, held the old and the new arrays at once (2.5 times the table: ~35 MB at a million keys) at
 * its last growth; sixteen grow one at a time, so that moment costs a sixteenth.
 */
const shardCount = 16;
const shardDivisor = 2 ** 49;
/** Keys noted per block of an ascending run (768 KB): blocks are added, never copied into a larger one. */
const runBlock = 65_536;

/**
 * A set of keys that remembers, for each, the line it was first seen on, in 14-18 bytes per key
 * instead of a JavaScript string's ~60: duplicate checks over a million-row file stay flat in memory.
 * Keys are stored as 53-bit hashes (cyrb53); the chance that two of a million distinct keys collide
 * is about 1 in 18,000 files, and a collision only ever shows as a duplicate warning to check.
 */
export class CompactKeySet {
  private shards: KeyTable[] = [];
  private readonly capacity: number;
  /**
   * While every key is greater than the one before (a file sorted by its key, as many exports are), none can be a
   * repeat: its hash and line are only noted, in order, in `run`. The tables are filled from it when the order first
   * breaks. A million random inserts into 15 MB of tables miss the processor's cache nearly every time (a fifth of
   * `stock validate`); appending in order does not.
   */
  private ascending = true;
  private lastKey: string | undefined;
  private run: { hashes: Float64Array; lines: Uint32Array }[] = [];
  private runLength = 0;

  /** `expectedKeys`: room for that many before the first growth (a million-key table grown took ~135 ms of its 400). */
  constructor(expectedKeys = 870) {
    // Hashes spread keys over the tables unevenly: four standard deviations more than a sixteenth each.
    const perShard = expectedKeys / shardCount + 4 * Math.sqrt(expectedKeys / shardCount);
    this.capacity = Math.ceil(Math.max(1, perShard / maxLoad));
  }

  get size(): number {
    let total = this.runLength;
    for (const shard of this.shards) total += shard.size;
    return total;
  }

  /** Bytes its tables, or its ascending run, hold. */
  get byteLength(): number {
    let total = this.run.length * runBlock * 12;
    for (const shard of this.shards) total += shard.byteLength;
    return total;
  }

  /** Adds a key seen on `line`; returns the line it was first seen on when it is already there. */
  addOrGetLine(key: string, line: number): number | undefined {
    if (this.ascending) {
      if (this.lastKey === undefined || key > this.lastKey) {
        this.lastKey = key;
        this.note(cyrb53(key), line);
        return undefined;
      }
      this.endRun();
    }
    const hash = cyrb53(key);
    return (this.shards[Math.floor(hash / shardDivisor)] as KeyTable).addOrGetLine(hash, line);
  }

  /**
   * The line `key` was first seen on, adding nothing; undefined when it was not seen. A run in order cannot be searched
   * for a key below its last: its tables are made then, as a key out of order would make them.
   */
  lineOf(key: string): number | undefined {
    if (this.ascending) {
      if (this.lastKey === undefined || key > this.lastKey) return undefined;
      this.endRun();
    }
    const hash = cyrb53(key);
    return (this.shards[Math.floor(hash / shardDivisor)] as KeyTable).lineOf(hash);
  }

  private note(hash: number, line: number): void {
    const at = this.runLength++ % runBlock;
    if (at === 0) {
      const [hashes, lines] = slots(runBlock);
      this.run.push({ hashes, lines });
    }
    const block = this.run.at(-1) as { hashes: Float64Array; lines: Uint32Array };
    block.hashes[at] = hash;
    block.lines[at] = line;
  }

  /** The order broke: the tables are made and filled from the run, a block at a time, each freed once read. */
  private endRun(): void {
    this.ascending = false;
    this.lastKey = undefined;
    this.shards = Array.from({ length: shardCount }, () => new KeyTable(this.capacity));
    let left = this.runLength;
    for (const { hashes, lines } of this.run) {
      const count = Math.min(left, runBlock);
      for (let index = 0; index < count; index++) {
        const hash = hashes[index] as number;
        // Two keys of the run with one hash (1 in 18,000 files at a million keys): the first line stays.
        (this.shards[Math.floor(hash / shardDivisor)] as KeyTable).addOrGetLine(hash, lines[index] as number);
      }
      left -= count;
      releaseNow(hashes.buffer as ArrayBuffer);
    }
    this.run = [];
    this.runLength = 0;
  }
}

/** An open-addressing table of 53-bit hashes and the line each was first seen on. */
class KeyTable {
  private hashes: Float64Array;
  private lines: Uint32Array;
  private count = 0;

  get size(): number {
    return this.count;
  }

  constructor(capacity: number) {
    [this.hashes, this.lines] = slots(Math.max(4, capacity));
  }

  get byteLength(): number {
    return this.hashes.length * 12;
  }

  addOrGetLine(keyHash: number, line: number): number | undefined {
    // 0 marks an empty slot, so hashes are shifted into 1..2^53.
    const hash = keyHash + 1;
    const capacity = this.hashes.length;
    let slot = home(hash, capacity);
    for (;;) {
      const stored = this.hashes[slot];
      if (stored === 0) break;
      if (stored === hash) return this.lines[slot];
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
    this.hashes[slot] = hash;
    this.lines[slot] = line;
    this.count++;
    // Memory is what this class is for: see maxLoad.
    if (this.count > this.hashes.length * maxLoad) this.grow();
    return undefined;
  }

  lineOf(keyHash: number): number | undefined {
    const hash = keyHash + 1;
    const capacity = this.hashes.length;
    for (let slot = home(hash, capacity); ; slot = slot + 1 === capacity ? 0 : slot + 1) {
      const stored = this.hashes[slot];
      if (stored === 0) return undefined;
      if (stored === hash) return this.lines[slot];
    }
  }

  private grow(): void {
    const oldHashes = this.hashes;
    const oldLines = this.lines;
    const oldCapacity = oldHashes.length;
    const capacity = Math.ceil(oldCapacity * growth);
    const [hashes, lines] = slots(capacity);
    for (let index = 0; index < oldCapacity; index++) {
      const hash = oldHashes[index] as number;
      if (hash === 0) continue;
      let slot = home(hash, capacity);
      while (hashes[slot] !== 0) slot = slot + 1 === capacity ? 0 : slot + 1;
      hashes[slot] = hash;
      lines[slot] = oldLines[index] as number;
    }
    this.hashes = hashes;
    this.lines = lines;
    releaseNow(oldHashes.buffer as ArrayBuffer);
  }
}

/**
 * A hash's first slot, from the 32 bits below the shard's and in their order: a growth, walking the old table in
 * order, then writes the new one nearly in order (0.7x the time of homes at `hash % capacity`).
 */
function home(hash: number, capacity: number): number {
  return Math.floor((((hash / 131_072) >>> 0) * capacity) / 4_294_967_296);
}

/**
 * The hashes and lines of `capacity` slots in one allocation: the C allocator gives such a block pages of its own,
 * handed back to the system when freed, where two arrays stayed in its free lists (~15 MB of RSS at a million).
 */
function slots(capacity: number): [Float64Array, Uint32Array] {
  const buffer = new ArrayBuffer(capacity * 12);
  return [new Float64Array(buffer, 0, capacity), new Uint32Array(buffer, capacity * 8, capacity)];
}

/**
 * Frees an array's memory at the next minor collection instead of the next full one, seconds later (12.6 MB of old
 * tables at a million keys): transferring the buffer hands its memory to a new, unreferenced object.
 */
function releaseNow(buffer: ArrayBuffer): void {
  structuredClone(buffer, { transfer: [buffer] });
}

/** cyrb53 (bryc, public domain): a fast 53-bit string hash with good spread. */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
