import type { WebhookKind } from '../../domain/webhook-events.js';

/**
 * Counts what the receiver stored, for one line a minute on stderr instead of a line per event on stdout (a
 * year of those filled a journal with gigabytes); `--log-events` brings the per-event lines back.
 */
export class IntakeSummary {
  private readonly stored: Record<WebhookKind, number> = { customers: 0, orders: 0 };
  private duplicates = 0;
  /** Events refused before they were stored, by HTTP status (each also logged, up to ten a minute). */
  private refusals = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  private readonly log: (line: string) => void;
  constructor(log: (line: string) => void) {
    this.log = log;
  }

  count(kind: WebhookKind): void {
    this.stored[kind]++;
  }

  duplicate(): void {
    this.duplicates++;
  }

  refused(status: number): void {
    this.refusals.set(status, (this.refusals.get(status) ?? 0) + 1);
  }

  /** Logs the line every `everyMs` (when something happened) until stop(). */
  start(everyMs = 60_000): void {
    this.timer = setInterval(() => this.flush(`in the last ${Math.round(everyMs / 1000)} s`), everyMs);
    this.timer.unref();
  }

  /** Stops the timer and logs what was counted since the last line. */
  stop(): void {
    clearInterval(this.timer);
    this.flush('since the last summary');
  }

  private flush(period: string): void {
    const total = this.stored.customers + this.stored.orders;
    const refused = [...this.refusals.values()].reduce((sum, count) => sum + count, 0);
    if (total === 0 && this.duplicates === 0 && refused === 0) return;
    const byStatus = [...this.refusals].map(([status, count]) => `HTTP ${status} ${count}`).join(', ');
    this.log(
      `Stored ${total} event${total === 1 ? '' : 's'} ${period} (customers ${this.stored.customers}, orders ${this.stored.orders}); ${this.duplicates} redeliver${this.duplicates === 1 ? 'y' : 'ies'} recognised${refused ? `; ${refused} refused, not stored (${byStatus})` : ''}.`,
    );
    this.stored.customers = 0;
    this.stored.orders = 0;
    this.duplicates = 0;
    this.refusals.clear();
  }
}
