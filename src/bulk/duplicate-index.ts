import { CompactKeySet } from '../lib/compact-key-set.js';

/** Where each unique value (a document, a SKU) was first seen in a file, by kind of value. */
export interface DuplicateIndex {
  /** Notes `value` of kind `label` at `place`; returns the place it was first seen at when it was seen before. */
  firstPlaceOf(label: string, value: string, place: number): number | undefined;
}

/** The duplicate index of bulk runs: a CompactKeySet (a hash and a place, ~16 bytes) per value and kind. */
export class CompactDuplicateIndex implements DuplicateIndex {
  private readonly sets = new Map<string, CompactKeySet>();

  firstPlaceOf(label: string, value: string, place: number): number | undefined {
    let set = this.sets.get(label);
    if (!set) {
      set = new CompactKeySet();
      this.sets.set(label, set);
    }
    return set.addOrGetLine(value, place);
  }
}
