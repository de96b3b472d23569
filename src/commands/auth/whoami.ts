import type { Context } from '../../context.js';
import { pathSettingChecks } from '../../command-kit/path-settings.js';
import { tokenNeedsRenewal } from '../../domain/token-expiry.js';
import { writeObject } from '../../io/output/write-object.js';
import { labelledLines } from '../../io/output/fitted-layouts.js';
import { terminalColumns } from '../../io/output/table.js';
import { loadStockSchema } from '../../io/stock-schema.js';
import { loadOrderRoutes } from '../../io/order-routes-file.js';

export type WhoamiOptions = Record<string, never>;

/** Where the values start: past the longest label, `Base URL:`, and a space. */
const labelWidth = 10;

export interface Identity {
  profile: string;
  baseUrl: string | null;
  username: string | null;
  /**
   * `valid`, `expired`, `unknown` (pre-issued token, expiry not known), `other-base-url` (the profile's token was
   * issued for another base URL than the one given with --base-url or B2BCTL_BASE_URL, so no command sends it) or
   * `none`.
   */
  tokenStatus: 'valid' | 'expired' | 'unknown' | 'other-base-url' | 'none';
  tokenSource: string | null;
  tokenExpiresAt: string | null;
}

/** Who b2bctl would act as: profile, base URL, user and token expiry; never the token itself. */
export async function run(_options: WhoamiOptions, context: Context): Promise<void> {
  const session = await context.session();
  // Run in a cron job's environment to check it: a value every command reading it refuses must not look fine here.
  const [refused] = session.refusedSettings();
  if (refused) throw refused.error;
  // Settings that name a file or hold JSON are read as the jobs read them: `B2BCTL_STOCK_SCHEMA='{bad'` passed here
  // and failed the nightly push.
  loadStockSchema(session.get('stock.schema'), { kind: 'setting', described: session.origin('stock.schema') });
  loadOrderRoutes(session.get('orders.routes'), { kind: 'setting', described: session.origin('orders.routes') });
  // So are the places on this machine: an outputDir that was not there passed here and the nightly push then sent
  // nothing (a user test).
  const refusedPath = (await pathSettingChecks(session)).find((check) => check.refusal !== undefined);
  if (refusedPath?.refusal) throw refusedPath.refusal;
  const token = session.setting('token');
  const profile = session.profile;
  const fromProfile = token.source === 'profile';
  const expiresAt = fromProfile ? profile.tokenExpiresAt : undefined;
  let tokenStatus: Identity['tokenStatus'] = 'none';
  if (token.value) {
    if (fromProfile && !session.profileTokenFitsBaseUrl()) tokenStatus = 'other-base-url';
    else if (!expiresAt) tokenStatus = 'unknown';
    else
      tokenStatus = tokenNeedsRenewal(
        { obtainedAtMs: Date.parse(profile.tokenObtainedAt ?? ''), expiresAtMs: Date.parse(expiresAt) },
        context.clock.now(),
      )
        ? 'expired'
        : 'valid';
  }
  const identity: Identity = {
    profile: session.profileName,
    baseUrl: session.get('baseUrl') ?? null,
    username: session.get('username') ?? null,
    tokenStatus,
    tokenSource: token.source ?? null,
    tokenExpiresAt: expiresAt ?? null,
  };
  const renewable = Boolean(identity.username && context.env.B2BCTL_PASSWORD);
  if (tokenStatus === 'none' && !renewable) throw session.notLoggedIn();

  if (context.outputFormat('json') === 'table') {
    const lines = [
      ['Profile:', identity.profile],
      ['Base URL:', identity.baseUrl ?? '(not set)'],
      ['User:', identity.username ?? '(not set)'],
      ['Token:', describeToken(identity, renewable)],
    ] as const;
    const width = terminalColumns(context.io.stdout);
    // On a terminal, a long value wraps under its own column, not back at the edge (a user test); piped, each stays on
    // its line, whole, for a script's grep.
    const shown =
      width === undefined
        ? lines.map(([label, value]) => `${label.padEnd(labelWidth)}${value}`)
        : labelledLines(lines, width, labelWidth);
    context.io.stdout.write(shown.map((line) => `${line}\n`).join(''));
  } else {
    await writeObject(context, { ...identity });
  }
  if (tokenStatus === 'expired' && !renewable) throw session.notLoggedIn('expired');
  if (tokenStatus === 'other-base-url' && !renewable) throw session.notLoggedIn('other base URL');
}

function describeToken(identity: Identity, renewable: boolean): string {
  const renewal = renewable ? ' (renewed from B2BCTL_USERNAME/B2BCTL_PASSWORD when needed)' : '';
  switch (identity.tokenStatus) {
    case 'valid':
      return `valid until ${identity.tokenExpiresAt}${renewal}`;
    case 'expired':
      return `expired at ${identity.tokenExpiresAt}${renewal}`;
    case 'unknown':
      return `from ${identity.tokenSource}, expiry unknown${renewal}`;
    case 'other-base-url':
      return `issued for another base URL than ${identity.baseUrl}, so not sent there${renewal}`;
    case 'none':
      return `none${renewal}`;
  }
}
