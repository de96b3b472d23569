/**
 * The last `bound` keys noted, oldest forgotten first: memory stays flat however many are noted. A Set keeps its
 * insertion order, so the oldest is its first.
 */
export class RecentKeys {
  private readonly keys = new Set<string>();

  constructor(readonly bound: number) {}

  /** Whether `key` is among the last `bound` noted. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Notes `key` as the newest, forgetting the oldest past the bound. */
  note(key: string): void {
    this.keys.delete(key);
    this.keys.add(key);
    if (this.keys.size > this.bound) this.keys.delete(this.keys.values().next().value as string);
  }
}
