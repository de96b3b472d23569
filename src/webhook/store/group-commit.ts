interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers concurrent submissions into one commit: while one batch commits, the next one gathers, so the cost
 * of a durable commit is shared by every event that arrived during the previous one. A submission resolves only
 * once its batch's commit has returned.
 */
export class GroupCommit<Item, Result> {
  private readonly waiting: Waiting<Item, Result>[] = [];
  private running: Promise<void> | undefined;

  private readonly commit: (items: Item[]) => Promise<Result[]>;
  private readonly oneAtATime;
  constructor(commit: (items: Item[]) => Promise<Result[]>, oneAtATime = false) {
    this.commit = commit;
    this.oneAtATime = oneAtATime;
  }

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.start();
    });
  }

  private start(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // Submitted after the last batch was taken but before this drain ended: it needs a drain of its own.
      if (this.waiting.length > 0) this.start();
    });
  }

  /** Waits for every submitted item's commit. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // One turn of the event loop lets the requests already read join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const batch = this.oneAtATime ? this.waiting.splice(0, 1) : this.waiting.splice(0);
      let results: Result[] = [];
      try {
        results = await this.commit(batch.map((waiting) => waiting.item));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
        continue;
      }
      batch.forEach((waiting, index) => waiting.resolve(results[index] as Result));
    }
  }
}
