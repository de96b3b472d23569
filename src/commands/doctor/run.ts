import { type Context, stdoutStyle } from '../../context.js';
import type { Session } from '../../config/session.js';
import { type HttpClient, secretsOfProxy } from '../../platform/http-client.js';
import { redactSecrets } from '../../platform/redact.js';
import { B2bctlError, ExitCode, UsageError } from '../../base/errors.js';
import { ProxySettingError } from '../../net/proxy-route.js';
import { readSecretFromStdin } from '../../io/read-stdin.js';
import { createRecordWriter } from '../../io/output/record-writer.js';
import { renderStacked, renderWrappingTable } from '../../io/output/fitted-layouts.js';
import { terminalColumns } from '../../io/output/table.js';
import type { Finding } from './findings.js';
import { checkDns, checkProxy, checkReachable, checkTls } from './network-checks.js';
import { orderAnswerSettingsFrom } from '../../platform/answers/orders.js';
import { secretFromEnvironment } from '../../net/environment-secret.js';
import { type DoctorPassword, probeCustomer, probeListing, probeOrderListing, probeToken } from './route-probes.js';
import { orderRouteFindings } from './order-routes.js';
import { stockSchemaFindings } from './stock-schema.js';
import { localFileFindings } from './local-files.js';

export interface DoctorOptions {
  /** A customer document to probe the update route with `{}` (the documented no-op). */
  document?: string;
  /** Read the password from stdin, for a fresh login (as B2BCTL_PASSWORD would give it). */
  passwordStdin?: boolean;
}

/**
 * Each check's time-out when http.timeout does not read (its own check fails): the one doctor used before it took the
 * profile's. Doctor answers in seconds, it does not wait out retries.
 */
const fallbackTimeoutMs = 10_000;

/**
 * Checks a profile's connection to the store and what b2bctl recognises of each documented route's
 * answer. Read-only: the one request that could write is the update route with `{}`, which the
 * document says changes nothing.
 */
export async function run(options: DoctorOptions, context: Context): Promise<void> {
  const session = await context.session();
  const baseUrl = session.get('baseUrl');
  if (!baseUrl)
    throw new UsageError(
      `No base URL for profile "${session.profileName}": pass --base-url URL or run b2bctl login first.`,
    );
  const loginPassword = await loginPasswordOf(options, session, context);
  const url = new URL(baseUrl);
  const findings: Finding[] = [
    {
      check: 'base URL',
      result: 'ok',
      detail: `${url.origin}${url.pathname.replace(/\/$/, '')} (profile "${session.profileName}", from ${session.setting('baseUrl').source})`,
    },
  ];
  findings.push(...settingFindings(session), ...stockSchemaFindings(session), ...(await localFileFindings(session)));
  // Decided before anything is sent, by the rule every command keeps (a user test: doctor sent one store's token to
  // another given with --base-url, and called it "ok").
  const tokenElsewhere = profileTokenOfAnotherStore(session, loginPassword);
  // The profile's time-out and proxy, as every command's requests have them: with a fixed 10 s, doctor was green on a
  // profile whose every job timed out (a user test). No retries: doctor answers in seconds.
  const timeoutMs = requestTimeoutOf(session);
  // What doctor quotes (a route's or the proxy's answer) is masked as every other command masks it: the token it
  // sent, the password it logged in with, the proxy's credentials (a user test: an answer echoing them was printed).
  const secrets = [session.get('token'), loginPassword?.value];
  let http: HttpClient;
  try {
    http = await context.httpClient(baseUrl, { retries: 0, timeoutMs });
  } catch (error) {
    // A proxy variable that cannot be read is a check that failed, as a setting that does not read is (a user test:
    // doctor printed no finding at all); every command refuses it, exit 2, before sending anything.
    if (!(error instanceof ProxySettingError)) throw error;
    findings.push(
      { check: 'proxy', result: 'fail', detail: error.message, exitCode: ExitCode.usage },
      { check: 'token and routes', result: 'skip', detail: 'nothing was sent: no command goes out with that proxy' },
    );
    return await endDoctor(findings, secrets, session, context);
  }
  secrets.push(...secretsOfProxy(http.route));
  const connection = await connectionFindings(http, url, timeoutMs, context);
  findings.push(...connection.findings);
  if (tokenElsewhere) {
    findings.push(tokenElsewhere, { check: 'routes', result: 'skip', detail: 'no token to ask the routes with' });
  } else if (connection.reachable) {
    const probed = await probeTokenAndRoutes(http, session, loginPassword, options, context);
    secrets.push(probed.token);
    findings.push(...probed.findings);
  } else {
    findings.push({ check: 'token and routes', result: 'skip', detail: 'the base URL cannot be reached' });
  }
  await endDoctor(findings, secrets, session, context);
}

/**
 * The network's checks in turn, each run only when the one before did not fail: DNS, proxy, TLS, reachability (with
 * the platform's clock); `reachable` when the base URL answered.
 */
async function connectionFindings(
  http: HttpClient,
  url: URL,
  timeoutMs: number,
  context: Context,
): Promise<{ findings: Finding[]; reachable: boolean }> {
  const findings: Finding[] = [await checkDns(url, http.route)];
  if (findings.at(-1)?.result !== 'fail') findings.push(await checkProxy(url, http.route, timeoutMs));
  if (findings.at(-1)?.result !== 'fail') findings.push(await checkTls(url, http.route, timeoutMs));
  if (findings.at(-1)?.result === 'fail') return { findings, reachable: false };
  const network = await checkReachable(http, () => context.clock.now());
  findings.push(network.reachable, ...(network.clock ? [network.clock] : []));
  return { findings, reachable: network.reachable.result === 'ok' };
}

/** The findings that need no request, then every finding printed, and the exit code the most telling failure gives. */
async function endDoctor(
  findings: Finding[],
  secrets: (string | undefined)[],
  session: Session,
  context: Context,
): Promise<void> {
  findings.push({
    check: 'stock routes',
    result: 'skip',
    detail: 'not probed (any request would write); a 2xx whose items are not recognised is reported "accepted"',
    setting: 'answers.stockBatch.results, answers.stockQueue.id',
  });
  findings.push(...orderRouteFindings(session));
  await printFindings(
    findings.map((finding) => maskedFinding(finding, secrets)),
    context,
  );
  // The most telling failure decides the exit code: unreachable, then refused, then the rest.
  const failures = findings.filter((finding) => finding.result === 'fail');
  const failed =
    [ExitCode.unavailable, ExitCode.authFailed, ExitCode.usage]
      .map((code) => failures.find((finding) => finding.exitCode === code))
      .find((finding) => finding !== undefined) ?? failures[0];
  if (failed)
    throw new B2bctlError(
      redactSecrets(
        `doctor: ${failures.length} check${failures.length === 1 ? '' : 's'} failed (${context.outputFormat('json') === 'table' ? 'the table above' : 'each finding’s "result"'} says which); ${failed.check}: ${failed.detail}`,
        secrets,
      ),
      (failed.exitCode ?? ExitCode.someRecordsFailed) as ExitCode,
    );
}

/**
 * The password doctor logs in with: the one piped, else B2BCTL_PASSWORD as every command reads it (one line end
 * dropped, a line break inside refused, exit 2); a second reading of its own blamed a right password that a
 * Windows file had left a CR on (a user test). Undefined: the cached token is checked instead.
 */
function passwordToLogInWith(piped: string | undefined, context: Context): DoctorPassword | undefined {
  if (piped !== undefined) return { value: piped, source: 'the password piped to --password-stdin' };
  const value = secretFromEnvironment(context.env, 'B2BCTL_PASSWORD');
  return value === undefined ? undefined : { value, source: 'B2BCTL_PASSWORD' };
}

/**
 * The password for a fresh login (passwordToLogInWith), the one piped to --password-stdin read first: before any
 * check, so that a terminal on stdin is refused before anything is sent.
 */
async function loginPasswordOf(
  options: DoctorOptions,
  session: Session,
  context: Context,
): Promise<DoctorPassword | undefined> {
  if (!options.passwordStdin) return passwordToLogInWith(undefined, context);
  if (context.io.isStdinTTY)
    throw new UsageError(
      '--password-stdin reads a pipe, and stdin is a terminal where the password would be echoed: pipe it (cat FILE | b2bctl doctor --password-stdin), or set B2BCTL_PASSWORD.',
    );
  const password = await readSecretFromStdin(context.io.stdin);
  if (!password) throw new UsageError('The password piped to --password-stdin is empty; nothing was checked.');
  // A password without its user cannot log in: said here, not as "no token" after the checks.
  if (!session.get('username'))
    throw new UsageError(
      `--password-stdin logs in as the integration user, and profile "${session.profileName}" names none: set B2BCTL_USERNAME, or b2bctl login once (the profile keeps the user); nothing was checked.`,
    );
  return passwordToLogInWith(password, context);
}

/**
 * The profile's cached token when the base URL is another store's (--base-url, B2BCTL_BASE_URL): not sent, refused
 * as every other command refuses it (the same rule, the same words, exit 77). With a password to log in there
 * (B2BCTL_PASSWORD, --password-stdin) doctor checks a fresh login instead, as a command would log in by itself.
 */
function profileTokenOfAnotherStore(session: Session, password: DoctorPassword | undefined): Finding | undefined {
  const token = session.setting('token');
  if (!token.value || token.source !== 'profile' || session.profileTokenFitsBaseUrl()) return undefined;
  if (session.get('username') && password) return undefined;
  return {
    check: 'token (cached)',
    result: 'fail',
    detail: session.notLoggedIn('other base URL').message,
    setting: 'baseUrl',
    exitCode: ExitCode.authFailed,
  };
}

/** The time-out every command's requests have (http.timeout); doctor's former fixed one when that does not read. */
function requestTimeoutOf(session: Session): number {
  try {
    return session.get('http.timeout');
  } catch (error) {
    if (error instanceof UsageError) return fallbackTimeoutMs;
    throw error;
  }
}

/**
 * Every setting read as a command would read it: a value its parser refuses (`B2BCTL_TIMEOUT=abc`) stops every
 * other command with exit 2, so doctor names it rather than call the profile fit.
 */
function settingFindings(session: Session): Finding[] {
  const refused = session.refusedSettings().map(({ key, error }): Finding => ({
    check: `setting ${key}`,
    result: 'fail',
    detail: error.message,
    setting: key,
    exitCode: ExitCode.usage,
  }));
  return refused.length > 0
    ? refused
    : [
        {
          check: 'settings',
          result: 'ok',
          detail: 'every value from the flags, the environment and the profile reads',
        },
      ];
}

/** A finding's words with every known secret masked (its check quotes a path, its detail an answer). */
function maskedFinding(finding: Finding, secrets: readonly (string | undefined)[]): Finding {
  return { ...finding, check: redactSecrets(finding.check, secrets), detail: redactSecrets(finding.detail, secrets) };
}

/**
 * The token, then (with it) the listing routes and the customer route's answer to a duplicate; the token the routes
 * were asked with, as a secret to mask.
 */
async function probeTokenAndRoutes(
  http: HttpClient,
  session: Session,
  password: DoctorPassword | undefined,
  options: DoctorOptions,
  context: Context,
): Promise<{ findings: Finding[]; token: string | undefined }> {
  const findings: Finding[] = [];
  const { finding, token } = await probeToken(http, session, context.env, context.clock.now(), password);
  if (token) {
    const routes: Finding[] = [
      await probeListing(
        http,
        token,
        {
          path: session.get('paths.sellers'),
          query: { limit: 1 },
          itemsSetting: 'answers.sellers.items',
          pathSetting: 'paths.sellers',
        },
        session.get('answers.sellers.items'),
      ),
      await probeOrderListing(
        http,
        token,
        session.get('paths.orders'),
        orderAnswerSettingsFrom((key) => session.get(key)),
      ),
      options.document
        ? await probeCustomer(http, token, options.document, session.get('customer.documentInPath'))
        : {
            check: 'PUT /v1/customer/:document {}',
            result: 'skip',
            detail: 'pass --document DOC to check how duplicates are recognised',
          },
    ];
    findings.push(tokenAsTheRoutesTookIt(finding, routes, session), ...routes);
  } else {
    findings.push(finding, { check: 'routes', result: 'skip', detail: 'no token to ask the routes with' });
  }
  return { findings, token };
}

/**
 * The cached token's line once the routes have answered: its expiry said it was good, but a 401 from every route
 * that answered is the platform refusing it (revoked early: a password changed, the integration user re-created).
 * Said on the token's own line with the fix, as every other command says it, not "ok" above the refusals. A token
 * just issued for the password is left as it is: the routes refusing it is not something a login would change.
 */
function tokenAsTheRoutesTookIt(token: Finding, routes: readonly Finding[], session: Session): Finding {
  if (token.check !== 'token (cached)' || token.result !== 'ok') return token;
  const answered = routes.filter((route) => route.status !== undefined);
  const refusal = answered.find((route) => route.status === 401);
  if (refusal === undefined || answered.some((route) => route.status !== 401)) return token;
  const where = `HTTP 401 on ${refusal.check}`;
  const detail = {
    env: `the platform refused the token in B2BCTL_TOKEN (${where}): give a valid one, or unset B2BCTL_TOKEN to use the profile's (b2bctl login)`,
    flag: `the platform refused the token given with --token (${where}): give a valid one, or leave --token out to use the profile's (b2bctl login)`,
  }[session.setting('token').source as string];
  return {
    ...token,
    result: 'fail',
    detail:
      detail ??
      `the platform refused it (${where}), though cached as valid until ${session.profile.tokenExpiresAt ?? '?'}: run ${session.commandLine(`login --profile ${session.profileName}`)} (or set B2BCTL_PASSWORD so b2bctl logs in again by itself)`,
    exitCode: ExitCode.authFailed,
  };
}

/**
 * Below this many columns the findings are stacked, one block each: beside checks' names of up to ~55 characters,
 * the two wrapping columns would get 15–25 characters each, a word or two a line. Wider, they are stacked too when
 * the names leave those columns less than their narrowest.
 */
const stackedBelowColumns = 120;

async function printFindings(findings: readonly Finding[], context: Context): Promise<void> {
  const format = context.outputFormat('json');
  // The exit code is ours, not part of what a support ticket needs.
  const shown = findings.map((finding) => ({ ...finding, exitCode: undefined }));
  const width = terminalColumns(context.io.stdout);
  if (format === 'table' && width !== undefined) {
    context.io.stdout.write(findingsOnScreen(shown, width));
    return;
  }
  const writer = createRecordWriter<Finding>(
    format,
    context.io.stdout,
    {
      table: findingColumns,
      csv: ['check', 'result', 'status', 'detail', 'setting'],
    },
    stdoutStyle(context),
  );
  for (const finding of shown) await writer.write(finding);
  await writer.end();
}

const findingColumns = [
  { header: 'CHECK', value: (finding: Finding) => finding.check },
  { header: 'RESULT', value: (finding: Finding) => finding.result },
  { header: 'STATUS', value: (finding: Finding) => (finding.status === undefined ? '' : String(finding.status)) },
  { header: 'RECOGNISED', value: (finding: Finding) => finding.detail, wrap: true },
  { header: 'SETTING', value: (finding: Finding) => finding.setting ?? '', wrap: true },
];

/** The findings as a terminal `width` wide shows them whole: cells wrapped in their columns, or stacked when narrow. */
export function findingsOnScreen(findings: readonly Finding[], width: number): string {
  const table = width >= stackedBelowColumns ? renderWrappingTable(findingColumns, findings, width) : undefined;
  if (table !== undefined) return table;
  return renderStacked(
    findings,
    {
      heading: (finding) =>
        `${finding.result.padEnd(4)}  ${finding.check}${finding.status === undefined ? '' : `  (HTTP ${finding.status})`}`,
      fields: (finding) => [finding.detail, finding.setting ? `setting: ${finding.setting}` : ''],
      // Under the check, past the result.
      indent: 6,
    },
    width,
  );
}
