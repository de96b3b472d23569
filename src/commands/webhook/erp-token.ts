import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { refusePlainHttp, refuseUrlCredentialOverPlainHttp, urlHoldsCredential } from '../../net/plain-http.js';

/** The variable holding the ERP's token for a hand-off URL: sent as `Authorization: Bearer`, never in argv. */
export const erpTokenVariable = 'B2BCTL_WEBHOOK_FORWARD_TOKEN';

/**
 * The ERP's credential for a hand-off URL (`--forward-to`, `--to`): the token of B2BCTL_WEBHOOK_FORWARD_TOKEN, as
 * `tax serve` takes B2BCTL_TAX_FORWARD_TOKEN; neither it nor a credential in the URL over plain HTTP to another
 * machine. A credential written in the URL is seen by every local user in `ps` and stays in the shell's history:
 * warned, as `--token` and a `--store` password are, with the variable that keeps it out.
 */
export function erpTokenFor(url: string, flag: string, allowHttp: boolean, context: Context): string | undefined {
  const parsed = new URL(url);
  refuseUrlCredentialOverPlainHttp(parsed, allowHttp, context.env);
  const token = context.env[erpTokenVariable] || undefined;
  if (token !== undefined) {
    // Both would be the request's one Authorization header.
    if (parsed.username !== '' || parsed.password !== '')
      throw new UsageError(
        `Give the ERP's credential once: ${erpTokenVariable} or the user in the ${flag} URL, not both.`,
      );
    refusePlainHttp(parsed, `the ERP token (${erpTokenVariable})`, allowHttp, undefined, context.env);
  }
  if (urlHoldsCredential(parsed))
    context.log.warn(
      `warning: ${flag} puts the ERP's credential (the URL's user or key) in the process list and shell history; leave it out of the URL and set ${erpTokenVariable}, sent as Authorization: Bearer.`,
    );
  return token;
}
