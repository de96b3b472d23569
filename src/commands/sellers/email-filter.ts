import { countOf } from '../../lib/plural.js';
import { emailContains, type SalesRep } from '../../domain/sales-rep.js';

/**
 * `sellers list --email` applied to what the listing gave, as `orders poll --status` applies its filter
 * (src/orders/status-filter.ts). The listing is sent the `email` filter the platform document names, but a platform
 * that ignores it (a gateway that drops the query, a store that names the parameter otherwise) lists every rep, with
 * a 200 all the same: a script looking a rep up by e-mail would take another rep's id. Each listed rep whose e-mail
 * does not contain the text is left out here, and counted, so the run can say once that the platform did not
 * filter. A rep that shows no e-mail cannot be checked: the platform's filter is all there is for it, so it is kept,
 * and counted too.
 */
export class EmailFilter {
  /** Listed reps left out for an e-mail that does not contain the text asked. */
  otherEmail = 0;
  /** Listed reps kept without a check, for showing no e-mail as text. */
  noEmail = 0;

  readonly part: string | undefined;
  constructor(part: string | undefined) {
    this.part = part;
  }

  /** Whether a listed rep is written: every rep when no --email was given. */
  keeps(rep: SalesRep): boolean {
    if (this.part === undefined) return true;
    const contains = emailContains(rep, this.part);
    if (contains === undefined) this.noEmail++;
    else if (!contains) this.otherEmail++;
    return contains !== false;
  }

  /** Whether `warnings` says anything of `pagesLeft`: only then is the page after asked for it. */
  warningsTellPagesLeft(): boolean {
    return this.otherEmail > 0;
  }

  /**
   * What the run says of the filter once it ends: a line for each kind of rep counted, none when all matched.
   * `pagesLeft`: one page was read and it was full, so reps the filter asks for may be on the pages after it.
   */
  warnings({ pagesLeft }: { pagesLeft: boolean }): string[] {
    const lines: string[] = [];
    if (this.otherEmail > 0)
      lines.push(
        `warning: the platform listed ${countOf(this.otherEmail, 'sales reps')} whose e-mail does not contain "${this.part}" though --email was sent: it did not filter its listing by e-mail, so b2bctl left them out itself.${pagesLeft ? ' Reps whose e-mail contains it may be on the pages after this one: --all reads every page.' : ''}`,
      );
    if (this.noEmail > 0) {
      const [them, they] = this.noEmail === 1 ? ['it', 'it was'] : ['them', 'they were'];
      lines.push(
        `warning: ${countOf(this.noEmail, 'listed sales reps')} showed no e-mail, so --email could not be checked on ${them}: ${they} written as the platform listed ${them} for the e-mail asked.`,
      );
    }
    return lines;
  }
}
