import type { Context } from '../../context.js';
import { erpAuthorizationFor } from '../../net/erp-credential.js';

/**
 * The `Authorization` header for a hand-off URL (`--forward-to`, `--to`): B2BCTL_WEBHOOK_FORWARD_TOKEN (Bearer) or
 * B2BCTL_WEBHOOK_FORWARD_BASIC (user:password), or the URL's own user; undefined without a credential.
 */
export function handOffAuthorization(
  url: string,
  flag: string,
  allowHttp: boolean,
  context: Context,
): string | undefined {
  return erpAuthorizationFor(url, {
    flag,
    prefix: 'B2BCTL_WEBHOOK_FORWARD',
    allowHttp,
    env: context.env,
    warn: (line) => context.log.warn(line),
  });
}
