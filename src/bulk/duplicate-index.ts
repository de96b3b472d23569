import { CompactKeySet } from '../lib/compact-key-set.js';

/** Where each unique value (a document, a SKU) was first seen in a file, by kind of value. */
export interface DuplicateIndex {
  /** Notes `value` of kind `label` at `place`; returns the place it was first seen at when it was seen before. */
  firstPlaceOf(label: string, value: string, place: number): number | undefined;
  /** The place `value` of kind `label` was first seen at, noting nothing; undefined when it was not seen. */
  placeOf(label: string, value: string): number | undefined;
  /** About how many values of each kind will come (an estimate, before the first): room made once. */
  expect(values: number): void;
}

/** The duplicate index of bulk runs: a CompactKeySet (a hash and a place, ~16 bytes) per value and kind. */
export class CompactDuplicateIndex implements DuplicateIndex {
  private readonly sets = new Map<string, CompactKeySet>();
  /** An estimate runs a little short as often as long: a twentieth more spares a growth at the last rows. */
  private expectedKeys: number | undefined;

  expect(values: number): void {
    this.expectedKeys = Math.ceil(values * 1.05);
  }

  firstPlaceOf(label: string, value: string, place: number): number | undefined {
    let set = this.sets.get(label);
    if (!set) {
      set = new CompactKeySet(this.expectedKeys);
      this.sets.set(label, set);
    }
    return set.addOrGetLine(value, place);
  }

  placeOf(label: string, value: string): number | undefined {
    return this.sets.get(label)?.lineOf(value);
  }
}
