import { UsageError } from '../base/errors.js';
import { credentialCharacterProblem } from '../domain/bearer-token.js';
import { secretFromEnvironment } from './environment-secret.js';
import { refusePlainHttp, refuseUrlCredentialOverPlainHttp, urlHoldsCredential } from './plain-http.js';
import type { ProxyEnvironment } from './proxy-route.js';

/** The two variables of one ERP credential: `${prefix}_TOKEN` (sent as Bearer) and `${prefix}_BASIC` (user:password). */
export type ErpCredentialPrefix = 'B2BCTL_WEBHOOK_FORWARD' | 'B2BCTL_TAX_FORWARD';

export interface ErpCredentialOptions {
  /** The flag that gave the URL, as messages name it (`--forward-to`, `--to`). */
  flag: string;
  prefix: ErpCredentialPrefix;
  /** `--allow-http`: a credential may go over plain HTTP to another machine. */
  allowHttp: boolean;
  /** Where the variables, and the proxy's, are read. */
  env: ProxyEnvironment;
  warn: (line: string) => void;
}

/**
 * The `Authorization` header b2bctl sends with every request to a URL it posts to on the ERP's behalf (the
 * receiver's hand-off, `tax serve --forward-to`); undefined without a credential. The credential comes from the
 * environment, a token (`PREFIX_TOKEN`, sent as Bearer) or a user and password (`PREFIX_BASIC`, written
 * `user:password` as `curl -u` takes it, sent as Basic), or from the URL's user-info (sent as Basic). Written in
 * the URL, every local user sees it in `ps` and the shell keeps it in its history: warned, with the variables that
 * keep it out. Two credentials would be the request's one header: refused. None goes over plain HTTP to another
 * machine without --allow-http.
 */
export function erpAuthorizationFor(url: string, options: ErpCredentialOptions): string | undefined {
  const parsed = new URL(url);
  const { flag, prefix, allowHttp, env } = options;
  const tokenVariable = `${prefix}_TOKEN`;
  const basicVariable = `${prefix}_BASIC`;
  const token = secretFromEnvironment(env, tokenVariable, { sentInHeader: true });
  const pair = secretFromEnvironment(env, basicVariable);
  const inUrl = parsed.username !== '' || parsed.password !== '';
  const given = [
    token === undefined ? undefined : tokenVariable,
    pair === undefined ? undefined : basicVariable,
    inUrl ? `the user in the ${flag} URL` : undefined,
  ].filter((name) => name !== undefined);
  if (given.length > 1)
    throw new UsageError(
      `Give the ERP's credential once: ${given.join(' or ')}, not ${given.length > 2 ? 'all' : 'both'}.`,
    );
  refuseUrlCredentialOverPlainHttp(parsed, allowHttp, env);
  refuseControlCharacters([
    [safelyDecoded(parsed.username), `The user in the ${flag} URL`, false],
    [safelyDecoded(parsed.password), `The password in the ${flag} URL`, false],
  ]);
  if (urlHoldsCredential(parsed))
    options.warn(
      `warning: ${flag} puts the ERP's credential (the URL's user or key) in the process list and shell history; leave it out of the URL and set ${tokenVariable} (sent as Bearer) or ${basicVariable} (user:password, sent as Basic).`,
    );
  if (token !== undefined) {
    refusePlainHttp(parsed, `the ERP token (${tokenVariable})`, allowHttp, undefined, env);
    return `Bearer ${token}`;
  }
  if (pair !== undefined) {
    // Without a colon the whole value would be taken as the user, with an empty password: a typo the ERP answers 401.
    if (!pair.includes(':'))
      throw new UsageError(`${basicVariable} holds no colon: write it user:password, as curl -u takes it.`);
    refusePlainHttp(parsed, `the ERP password (${basicVariable})`, allowHttp, undefined, env);
    return basic(pair);
  }
  if (inUrl) return basic(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`);
  return undefined;
}

/**
 * A URL's user or password with a line break inside would fail every delivery with an error that says nothing of it:
 * refused at start (exit 2), naming where it came from, as the variables are (secretFromEnvironment). A Basic pair is
 * sent base64-encoded, so only control characters are refused in it.
 */
function refuseControlCharacters(credentials: [string | undefined, string, boolean][]): void {
  for (const [credential, source, sentInHeader] of credentials) {
    const problem = credential === undefined ? undefined : credentialCharacterProblem(credential, source, sentInHeader);
    if (problem !== undefined) throw new UsageError(problem);
  }
}

/** A URL's user or password decoded, or as written when its escapes are broken (the URL parser keeps them so). */
function safelyDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

/** The URL without its user-info: the credential goes as a header, and the URL may be shown or proxied. */
export function withoutUserInfo(url: string): string {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
