/**
 * A set of keys that remembers, for each, the line it was first seen on, in 12-18 bytes per key
 * instead of a JavaScript string's ~60: duplicate checks over a million-row file stay flat in memory.
 * Keys are stored as 53-bit hashes (cyrb53); the chance that two of a million distinct keys collide
 * is about 1 in 18,000 files, and a collision only ever shows as a duplicate warning to check.
 */
const maxLoad = 0.85;

/**
 * Tables the keys are spread over by their hash's top bits. One table of a million keys, grown by
 * half, held the old and the new arrays at once (2.5 times the table: ~35 MB at a million keys) at
 * its last growth; sixteen grow one at a time, so that moment costs a sixteenth.
 */
const shardCount = 16;
const shardDivisor = 2 ** 49;

export class CompactKeySet {
  private readonly shards: KeyTable[];
  private count = 0;

  constructor(initialCapacity = 1024) {
    const capacity = Math.ceil(Math.max(16, initialCapacity) / shardCount);
    this.shards = Array.from({ length: shardCount }, () => new KeyTable(capacity));
  }

  get size(): number {
    return this.count;
  }

  /** Adds a key seen on `line`; returns the line it was first seen on when it is already there. */
  addOrGetLine(key: string, line: number): number | undefined {
    const hash = cyrb53(key);
    const firstLine = (this.shards[Math.floor(hash / shardDivisor)] as KeyTable).addOrGetLine(hash, line);
    if (firstLine === undefined) this.count++;
    return firstLine;
  }
}

/** An open-addressing table of 53-bit hashes and the line each was first seen on. */
class KeyTable {
  private hashes: Float64Array;
  private lines: Uint32Array;
  private count = 0;

  constructor(capacity: number) {
    this.hashes = new Float64Array(Math.max(4, capacity));
    this.lines = new Uint32Array(Math.max(4, capacity));
  }

  addOrGetLine(keyHash: number, line: number): number | undefined {
    // 0 marks an empty slot, so hashes are shifted into 1..2^53.
    const hash = keyHash + 1;
    const capacity = this.hashes.length;
    let slot = hash % capacity;
    for (;;) {
      const stored = this.hashes[slot];
      if (stored === 0) break;
      if (stored === hash) return this.lines[slot];
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
    this.hashes[slot] = hash;
    this.lines[slot] = line;
    this.count++;
    // Dense (85% full) and grown by half, not doubled: memory is what this class is for.
    if (this.count > this.hashes.length * maxLoad) this.grow();
    return undefined;
  }

  private grow(): void {
    const oldHashes = this.hashes;
    const oldLines = this.lines;
    const capacity = Math.ceil(oldHashes.length * 1.5);
    this.hashes = new Float64Array(capacity);
    this.lines = new Uint32Array(capacity);
    for (let index = 0; index < oldHashes.length; index++) {
      const hash = oldHashes[index] as number;
      if (hash === 0) continue;
      let slot = hash % capacity;
      while (this.hashes[slot] !== 0) slot = slot + 1 === capacity ? 0 : slot + 1;
      this.hashes[slot] = hash;
      this.lines[slot] = oldLines[index] as number;
    }
  }
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
