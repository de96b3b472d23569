import { orderStatusOf } from '../domain/order-stages.js';
import type { StoreStatusWords } from '../domain/store-status-words.js';
import { countOf } from '../lib/plural.js';

/**
 * `orders poll --status` applied to what the listing gave. The listing is sent the repeatable `status` filter the
 * platform document names, but a platform that ignores it (or a gateway that drops it) lists every order, with a 200
 * all the same: each listed order whose status is another is left out here, and counted, so the run can say once
 * that the platform did not filter. An order that shows no status cannot be checked: the platform's filter is all
 * there is for it, so it is kept, and counted too. With `--detail` what is written is each order's detail, read
 * after the listing: an order may have changed meanwhile (cancelled since it was listed ready to ship), so the status
 * its detail shows is checked again, and decides for an order the listing showed none for.
 */
export class StatusFilter {
  /** Listed orders left out for showing another status than those asked. */
  otherStatus = 0;
  /** Orders left out for showing another status in their detail than those asked. */
  otherStatusInDetail = 0;
  /** Listed orders kept without a check, for showing no status as text (nor their detail, with --detail). */
  noStatus = 0;
  /** Whether a listed order (or its detail) showed a status asked: the filter is spelled as the platform spells it. */
  sawStatusAsked = false;
  private readonly asked: ReadonlySet<string>;
  private readonly detail: boolean;
  private readonly words: StoreStatusWords | undefined;

  readonly statuses: readonly string[];
  constructor(
    statuses: readonly string[],
    { detail, words }: { detail: boolean; words?: StoreStatusWords } = { detail: false },
  ) {
    this.statuses = statuses;
    this.words = words;

    // The platform writes statuses in capitals; one that matched `ready_to_ship` listed such orders as asked. A
    // status is read as the moves read it (orderStatusOf): `CANCELLED` asked is the `canceled` an order shows, and on
    // a store with words of its own (answers.order.statusWords) its `PRONTO_PARA_ENVIO` is `READY_TO_SHIP`.
    this.asked = new Set(statuses.map((status) => this.stageOf(status)));
    this.detail = detail;
  }

  /** A status as the filter compares it: its stage, or the word itself in capitals when it is none. */
  private stageOf(status: string): string {
    return (orderStatusOf(status, this.words) ?? status).toUpperCase();
  }

  /** The orders of a status asked (every order when none was asked), in the order given. */
  keep<T extends { status?: string }>(orders: readonly T[]): T[] {
    if (this.asked.size === 0) return [...orders];
    return orders.filter((order) => {
      if (order.status === undefined) {
        // With --detail, its detail may show the status: counted once that is read (keepShown).
        if (!this.detail) this.noStatus++;
        return true;
      }
      if (this.asked.has(this.stageOf(order.status))) {
        this.sawStatusAsked = true;
        return true;
      }
      this.otherStatus++;
      return false;
    });
  }

  /**
   * With --detail, whether an order kept from the listing is written: by the status its detail shows, or when that
   * shows none, by the listing's (already checked).
   */
  keepShown(listed: { status?: string }, detailStatus: string | undefined): boolean {
    if (this.asked.size === 0) return true;
    if (detailStatus === undefined) {
      if (listed.status === undefined) this.noStatus++;
      return true;
    }
    if (this.asked.has(this.stageOf(detailStatus))) {
      this.sawStatusAsked = true;
      return true;
    }
    this.otherStatusInDetail++;
    return false;
  }

  /** What the run says of the filter once it ends: a line for each kind of order counted, none when all matched. */
  warnings(): string[] {
    const asked = this.statuses.join(', ').replace(/, (?!.*, )/, ' or ');
    const lines: string[] = [];
    if (this.otherStatus > 0)
      lines.push(
        `warning: the platform listed ${countOf(this.otherStatus, 'orders')} of another status than ${asked} though --status was sent: it did not filter its listing by status, so b2bctl left them out itself.`,
      );
    if (this.otherStatusInDetail > 0) {
      const [its, them] = this.otherStatusInDetail === 1 ? ['its detail', 'it'] : ['their details', 'them'];
      lines.push(
        `warning: ${countOf(this.otherStatusInDetail, 'listed orders')} showed another status than ${asked} in ${its}, so b2bctl left ${them} out (an order that changed after it was listed is emitted by a later run whose listing shows it with a status asked).`,
      );
    }
    if (this.noStatus > 0) {
      const [them, they] = this.noStatus === 1 ? ['it', 'it was'] : ['them', 'they were'];
      const shown = this.detail ? ` (nor ${this.noStatus === 1 ? 'its detail' : 'their details'})` : '';
      lines.push(
        `warning: ${countOf(this.noStatus, 'listed orders')} showed no status${shown}, so --status could not be checked on ${them}: ${they} emitted as the platform listed ${them} for the status asked.`,
      );
    }
    return lines;
  }
}
