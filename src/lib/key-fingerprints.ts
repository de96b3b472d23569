import { cyrb53 } from './compact-key-set.js';

/**
 * A key's table is chosen by the top 12 bits of its 53-bit hash (one of 16 groups, one of 256 regions in it),
 * and those bits are never stored: the region a fingerprint sits in holds them. A false match so needs the same
 * 12 bits and the same 32-bit fingerprint, 44 bits in all: about once in 35 files of a million keys, where 32
 * bits alone would give ~116 false matches a file.
 */
const groupCount = 16;
const regionBits = 8;
const regionCount = 2 ** regionBits;
const regionDivisor = 2 ** (53 - 4 - regionBits);

/**
 * A region is a table of its own (linear probing inside it), but the 256 regions of a group live in one array
 * and grow together, when the fullest is 90% full: one array per region (4,096 small ones, grown one at a
 * time) left the freed ones scattered over the C heap, ~40 MB of RSS at a million keys. Regions fill unevenly,
 * so a group is 57-75% full on average at a million keys (5.3-7 bytes a key); a growth by a quarter moves a
 * sixteenth of the keys at a time.
 */
const maxLoad = 0.9;
const growth = 1.25;
const firstRegionCapacity = 8;

/**
 * Which keys may have been seen, in ~6 bytes a key: a 32-bit fingerprint per key, no key and no line. `add`
 * says a key is new for certain, or that a key with its fingerprint was added before: the same key, or (rarely,
 * see regionDivisor) another one, which only the keys themselves can tell apart. RecordChecker reads its
 * input again to find out, and to find where the key was first seen.
 */
export class KeyFingerprintSet {
  private readonly groups = Array.from({ length: groupCount }, () => new FingerprintGroup());

  /** `hash` is a 53-bit hash of a key; tests give one with collisions to force false matches. */
  constructor(private readonly hash: (key: string) => number = cyrb53) {}

  get size(): number {
    let total = 0;
    for (const group of this.groups) total += group.size;
    return total;
  }

  /** Bytes its tables hold. */
  get byteLength(): number {
    let total = 0;
    for (const group of this.groups) total += group.byteLength;
    return total;
  }

  /** Frees its tables now rather than at the next full collection; the set is empty and unusable after. */
  release(): void {
    for (const group of this.groups) group.release();
  }

  /** Adds the key's fingerprint; false when it was already there (the same key, or rarely another one). */
  add(key: string): boolean {
    const hash = this.hash(key);
    const table = Math.floor(hash / regionDivisor);
    // 0 marks an empty slot: the fingerprint 0 is stored as 1 (one key in 4 billion shares it with another).
    const fingerprint = hash >>> 0 || 1;
    return (this.groups[table >>> regionBits] as FingerprintGroup).add(table & (regionCount - 1), fingerprint);
  }
}

/** 256 open-addressing tables of 32-bit fingerprints side by side in one array, each at home where its top bits say. */
class FingerprintGroup {
  private regionCapacity = firstRegionCapacity;
  private slots = new Uint32Array(regionCount * firstRegionCapacity);
  private readonly counts = new Uint32Array(regionCount);
  private count = 0;

  get size(): number {
    return this.count;
  }

  get byteLength(): number {
    return this.slots.byteLength + this.counts.byteLength;
  }

  add(region: number, fingerprint: number): boolean {
    const slots = this.slots;
    const capacity = this.regionCapacity;
    const start = region * capacity;
    let offset = home(fingerprint, capacity);
    for (;;) {
      const stored = slots[start + offset];
      if (stored === 0) break;
      if (stored === fingerprint) return false;
      offset = offset + 1 === capacity ? 0 : offset + 1;
    }
    slots[start + offset] = fingerprint;
    this.count++;
    const count = (this.counts[region] as number) + 1;
    this.counts[region] = count;
    if (count > capacity * maxLoad) this.grow();
    return true;
  }

  release(): void {
    releaseNow(this.slots.buffer as ArrayBuffer);
  }

  private grow(): void {
    const old = this.slots;
    const oldCapacity = this.regionCapacity;
    const capacity = Math.ceil(oldCapacity * growth);
    const slots = new Uint32Array(regionCount * capacity);
    for (let region = 0; region < regionCount; region++) {
      const start = region * capacity;
      for (let index = region * oldCapacity; index < (region + 1) * oldCapacity; index++) {
        const fingerprint = old[index] as number;
        if (fingerprint === 0) continue;
        let offset = home(fingerprint, capacity);
        while (slots[start + offset] !== 0) offset = offset + 1 === capacity ? 0 : offset + 1;
        slots[start + offset] = fingerprint;
      }
    }
    this.slots = slots;
    this.regionCapacity = capacity;
    releaseNow(old.buffer as ArrayBuffer);
  }
}

/** Where in its region a fingerprint belongs: its top bits scaled to the region (the fingerprint alone, so it can grow). */
function home(fingerprint: number, capacity: number): number {
  return Math.floor((fingerprint * capacity) / 4294967296);
}

/** Frees a grown table's old array at the next minor collection (CompactKeySet's releaseNow says why). */
function releaseNow(buffer: ArrayBuffer): void {
  structuredClone(buffer, { transfer: [buffer] });
}
