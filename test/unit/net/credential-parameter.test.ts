/**
 * One rule for "this query parameter carries a credential": the plain-HTTP guard that refuses to send it to another
 * machine, the warning that it sits in the process list, and the masking of every printed URL give each name the
 * same verdict. Two rules disagreed (a user test): `?code=`, `?jwt=`, `?senha=` and `?chave=` went over plain HTTP
 * unwarned while the logs masked them, and `?sortKey=` and `?author=` were refused as credentials.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors.js';
import { erpAuthorizationFor } from '../../../src/net/erp-credential.js';
import { refuseUrlCredentialOverPlainHttp } from '../../../src/net/plain-http.js';
import { redactUrl } from '../../../src/platform/redact.js';

/** Whether the guard refuses the URL over plain HTTP to another machine (exit 2), without --allow-http. */
function refused(url: string): boolean {
  try {
    refuseUrlCredentialOverPlainHttp(new URL(url), false);
    return false;
  } catch (error) {
    if (error instanceof UsageError) return true;
    throw error;
  }
}

/** Whether a `--to` URL is warned about as putting the ERP's credential in the process list. */
function warnedAbout(url: string): boolean {
  const warnings: string[] = [];
  erpAuthorizationFor(url, {
    flag: '--to',
    prefix: 'B2BCTL_WEBHOOK_FORWARD',
    allowHttp: true,
    env: {},
    warn: (line) => warnings.push(line),
  });
  return warnings.some((line) => line.includes('in the process list'));
}

/** Whether a printed URL shows the parameter's value `[redacted]`. */
const masked = (url: string) => redactUrl(url) !== url && redactUrl(url).endsWith('=[redacted]');

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1QHgifQ.c2lnbmF0dXJl';

describe('a query parameter: guard, warning and mask agree', () => {
  it.each([
    ['code', 'abc', true],
    ['jwt', 'abc', true],
    ['senha', 'abc', true],
    ['chave', 'abc', true],
    ['token', 'abc', true],
    ['api_key', 'abc', true],
    ['X-Amz-Signature', 'abc', true],
    ['sig', 'abc', true],
    ['state', jwt, true],
    ['sortKey', 'date', false],
    ['author', 'ana', false],
    ['monkey', 'abc', false],
    ['token_type', 'bearer', false],
    ['limit', '5', false],
  ])('?%s=%s: a credential is %s for all three', (name, value, credential) => {
    const url = `http://192.0.2.1/x?${name}=${value}`;
    expect({ refused: refused(url), warned: warnedAbout(url), masked: masked(url) }).toEqual({
      refused: credential,
      warned: credential,
      masked: credential,
    });
  });
});
