/** One line of `b2bctl doctor`'s table. */
export interface Finding {
  /** What was checked: `DNS`, `clock`, or a route such as `GET /sellerModule/listSellers?limit=1`. */
  check: string;
  /** `ok`, `warn` (works, but look), `fail`, or `skip` (not checked, and why). */
  result: 'ok' | 'warn' | 'fail' | 'skip';
  /** The HTTP status, when the check asked the platform. */
  status?: number;
  /** What b2bctl found or recognised, in words. */
  detail: string;
  /** The setting to change when b2bctl recognised nothing, or the one that decides this check. */
  setting?: string;
  /** The exit code this failure stands for (docs/output.md, "Exit codes"). */
  exitCode?: number;
}
