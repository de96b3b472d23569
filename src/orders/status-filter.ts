import { countOf } from '../lib/plural.js';

/**
 * `orders poll --status` applied to what the listing gave. The listing is sent the repeatable `status` filter the
 * platform document names, but a platform that ignores it (or a gateway that drops it) lists every order, with a 200
 * all the same: each listed order whose status is another is left out here, and counted, so the run can say once
 * that the platform did not filter. An order that shows no status cannot be checked: the platform's filter is all
 * there is for it, so it is kept, and counted too.
 */
export class StatusFilter {
  /** Listed orders left out for showing another status than those asked. */
  otherStatus = 0;
  /** Listed orders kept without a check, for showing no status as text. */
  noStatus = 0;
  private readonly asked: ReadonlySet<string>;

  constructor(readonly statuses: readonly string[]) {
    // The platform writes statuses in capitals; one that matched `ready_to_ship` listed such orders as asked.
    this.asked = new Set(statuses.map((status) => status.toUpperCase()));
  }

  /** The orders of a status asked (every order when none was asked), in the order given. */
  keep<T extends { status?: string }>(orders: readonly T[]): T[] {
    if (this.asked.size === 0) return [...orders];
    return orders.filter((order) => {
      if (order.status === undefined) {
        this.noStatus++;
        return true;
      }
      if (this.asked.has(order.status.toUpperCase())) return true;
      this.otherStatus++;
      return false;
    });
  }

  /** What the run says of the filter once it ends: a line for each kind of order counted, none when all matched. */
  warnings(): string[] {
    const asked = this.statuses.join(', ').replace(/, (?!.*, )/, ' or ');
    const lines: string[] = [];
    if (this.otherStatus > 0)
      lines.push(
        `warning: the platform listed ${countOf(this.otherStatus, 'orders')} of another status than ${asked} though --status was sent: it did not filter its listing by status, so b2bctl left them out itself.`,
      );
    if (this.noStatus > 0) {
      const [them, they] = this.noStatus === 1 ? ['it', 'it was'] : ['them', 'they were'];
      lines.push(
        `warning: ${countOf(this.noStatus, 'listed orders')} showed no status, so --status could not be checked on ${them}: ${they} emitted as the platform listed ${them} for the status asked.`,
      );
    }
    return lines;
  }
}
