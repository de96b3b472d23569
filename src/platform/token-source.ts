import type { Clock } from '../base/clock.js';
import type { Session } from '../config/session.js';
import { believedTokenExpiry, tokenNeedsRenewal, tokenSavedByAnotherRun } from '../domain/token-expiry.js';
import { loginLockWaitMs, takeLoginLock } from '../config/login-lock.js';
import { AuthError, ConfigError, UnavailableError, UsageError } from '../base/errors.js';
import { bearerTokenText, unsendableTokenCharacter } from '../domain/bearer-token.js';
import { refusePlainHttp } from '../net/plain-http.js';
import { sameBaseUrl } from '../net/base-url.js';
import { LoginRefusedError, requestToken, type IssuedToken, type TokenRouteStyle } from './auth.js';
import type { TokenAnswerSettings } from './answers/token.js';
import type { HttpClient } from './http-client.js';
import { defaultBackoff, isRetryableNetworkError } from './retry-policy.js';
import { secretFromEnvironment } from '../net/environment-secret.js';

/** Why b2bctl logs in by itself, as the line of a refused login names it. */
type LoginReason = 'no token' | 'expired' | 'refused' | 'other base URL' | 'unsendable';

/** The login lock's wait (loginLockWaitMs of the run's retry policy unless given) and the run's interrupt. */
interface LoginLockOptions {
  waitMs?: number;
  signal?: AbortSignal;
}

/**
 * Hands out the access token for a session: the cached one while it is fresh, a new one when it has
 * expired or was refused and credentials are in the environment (docs/platform.md, "Logging in"). One per command, shared by
 * every client of the session whatever its tuning, so the token is fetched once; a login goes through the
 * client that needed it, so a bulk run's summary counts it among the run's requests.
 *
 * The profile's token is shared with every other run of the profile (two cron jobs started together): a run logs in
 * under the profile's login lock and first takes the token another run saved meanwhile, and answers a 401 with
 * that token before it logs in, so two jobs on a store that revokes a token when it issues the next do not keep
 * logging each other out (docs/platform.md, "Logging in").
 */
export class TokenSource {
  private token: string | undefined;
  private renewal: Promise<string> | undefined;

  /** Tokens this run will not take from the profile again: the one it found expired, and each it saw refused. */
  private readonly setAside = new Set<string>();

  /** Tokens this run's own logins were issued: a 401 to one of them is not answered by another token. */
  private readonly issued = new Set<string>();

  /** Tokens this run took from another run's save: a 401 to one of them is answered by a login of this run's own. */
  private readonly takenFromOtherRuns = new Set<string>();

  /** Whether the base URL was found fit for the token (checked once, before the first request that carries it). */
  private sentSafely = false;

  /** Whether this run has said that its profile was logged in elsewhere meanwhile (said once). */
  private toldProfileChanged = false;

  private readonly session: Session;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private readonly clock: Clock;
  private readonly log: (message: string) => void;
  /** Always shown, even with --quiet: a token sent where the profile's own would have gone. */
  private readonly warn: (message: string) => void;
  private readonly loginLock: LoginLockOptions;
  /** `loginLock`: how long to wait for another run's login (a test shortens it), and the run's interrupt. */
  constructor(
    session: Session,
    env: Readonly<Record<string, string | undefined>>,
    clock: Clock,
    log: (message: string) => void,
    warn: (message: string) => void = log,
    loginLock: LoginLockOptions = {},
  ) {
    this.session = session;
    this.env = env;
    this.clock = clock;
    this.log = log;
    this.warn = warn;
    this.loginLock = loginLock;
  }

  async current(http: HttpClient): Promise<string> {
    const token = await this.found(http);
    // The token goes with every request: never in clear past this machine, wherever it came from (the profile,
    // B2BCTL_TOKEN, a base URL changed after login) unless the profile's login allowed plain HTTP.
    if (!this.sentSafely) {
      this.refuseInClear('the token');
      this.sentSafely = true;
    }
    return token;
  }

  /**
   * B2BCTL_TOKEN outranks the profile's token (docs/settings.md), so one exported for a one-off went to whichever store
   * --profile named next, without a word (a user test). The precedence is kept, as gh keeps GH_TOKEN's, and said in
   * one line when the profile has a token of its own for this base URL: the one case where the variable set it aside.
   */
  private warnIfProfileTokenSetAside(): void {
    if (!this.session.profile.token || !this.session.profileTokenFitsBaseUrl()) return;
    this.warn(
      `warning: B2BCTL_TOKEN is set and is sent to ${this.session.requireBaseUrl()} instead of the token cached in profile "${this.session.profileName}" for that store; unset B2BCTL_TOKEN to use the profile's.`,
    );
  }

  /** Refuses (exit 2) to send `credential` to the base URL in clear past this machine, unless http.allowPlain. */
  private refuseInClear(credential: string): void {
    refusePlainHttp(
      new URL(this.session.requireBaseUrl()),
      credential,
      this.session.get('http.allowPlain') === 'true',
      'set http.allowPlain (B2BCTL_ALLOW_HTTP=true)',
      this.env,
    );
  }

  private async found(http: HttpClient): Promise<string> {
    if (this.token) return this.token;
    if (this.renewal) return this.renewal;
    const setting = this.session.setting('token');
    if (setting.value && setting.source !== 'profile') {
      this.token = givenToken(setting.value, setting.source === 'env' ? 'B2BCTL_TOKEN' : '--token');
      if (setting.source === 'env') this.warnIfProfileTokenSetAside();
      return this.token;
    }
    if (setting.value && this.session.profileTokenFitsBaseUrl()) {
      // A token an older b2bctl cached as the token route answered it: a line end around it is dropped; one that
      // holds a character no header can carry would fail every request as if the network were down.
      const cached = bearerTokenText(setting.value);
      if (unsendableTokenCharacter(cached) !== undefined) {
        if (!this.credentials()) throw this.session.notLoggedIn('unsendable');
        return this.renew(http, 'unsendable');
      }
      const expired = tokenNeedsRenewal(
        {
          obtainedAtMs: Date.parse(this.session.profile.tokenObtainedAt ?? ''),
          expiresAtMs: Date.parse(this.session.profile.tokenExpiresAt ?? ''),
        },
        this.clock.now(),
      );
      if (!expired) {
        this.token = cached;
        return this.token;
      }
      if (!this.credentials()) throw this.session.notLoggedIn('expired');
      this.setAside.add(cached);
      return this.renew(http, 'expired');
    }
    if (!this.credentials() && setting.value) throw this.session.notLoggedIn('other base URL');
    return this.renew(http, setting.value ? 'other base URL' : 'no token');
  }

  /**
   * After a 401: the token another run of the profile saved meanwhile, when there is one, else one fresh login
   * (shared by every request that saw the same refusal), or exit 77. When the refused token was itself another run's,
   * the next is this run's own login (docs/platform.md, "Logging in"): on a store that revokes a token as it issues
   * the next, a third run's save may come between two 401s, and taking each in turn ended exit 77 with no login.
   */
  async renewAfterRejection(rejected: string, http: HttpClient): Promise<string> {
    if (this.renewal) return this.renewal;
    if (this.token && this.token !== rejected) return this.token;
    this.setAside.add(rejected);
    const mayTakeSaved = !this.takenFromOtherRuns.has(rejected);
    if (mayTakeSaved && this.sharesTheProfileToken(this.session.get('username'))) {
      const saved = this.tokenSavedMeanwhile();
      if (saved !== undefined) return this.takeSaved(saved, 'refused');
    }
    if (!this.credentials()) throw this.session.notLoggedIn('refused');
    return this.renew(http, 'refused', mayTakeSaved);
  }

  /** Whether `token` came from a login of this run's own: a 401 to it is the platform's last word. */
  issuedToThisRun(token: string): boolean {
    return this.issued.has(token);
  }

  /** `mayTakeSaved`: false once another run's token was refused, so the lock's holder's save is not taken either. */
  private renew(http: HttpClient, reason: LoginReason, mayTakeSaved = true): Promise<string> {
    const credentials = this.credentials();
    if (!credentials) return Promise.reject(this.session.notLoggedIn());
    this.token = undefined;
    this.renewal = this.renewShared(credentials, http, reason, mayTakeSaved).finally(() => {
      this.renewal = undefined;
    });
    return this.renewal;
  }

  /**
   * A login; for the profile's own token, under the profile's login lock, and none when another run saved a token
   * while this one waited for the lock (or before). A login for this run only (another base URL or user) takes no lock.
   */
  private async renewShared(
    credentials: { username: string; password: string },
    http: HttpClient,
    reason: LoginReason,
    mayTakeSaved: boolean,
  ): Promise<string> {
    if (!this.sharesTheProfileToken(credentials.username)) return this.login(credentials, http, reason);
    // Refused before the wait, as the login would be: a run that may not send the password waits for no one.
    this.refuseInClear('the password (B2BCTL_PASSWORD)');
    const waitMs =
      this.loginLock.waitMs ??
      loginLockWaitMs({
        retries: this.session.get('http.retries'),
        timeoutMs: this.session.get('http.timeout'),
        backoff: defaultBackoff,
      });
    const release = await takeLoginLock(this.session.store.directory, this.session.profileName, {
      waitMs,
      clock: this.clock,
      signal: this.loginLock.signal,
      warn: this.warn,
    });
    try {
      const saved = mayTakeSaved ? this.tokenSavedMeanwhile() : undefined;
      if (saved !== undefined) return this.takeSaved(saved, reason);
      return await this.login(credentials, http, reason);
    } finally {
      release?.();
    }
  }

  /**
   * Whether this run's token is the profile's own, which every run of the profile shares: none given for this run
   * (B2BCTL_TOKEN, --token), and the profile's base URL and user (not ones given for this run only).
   */
  private sharesTheProfileToken(username: string | undefined): boolean {
    const source = this.session.setting('token').source;
    return (
      (source === undefined || source === 'profile') && username !== undefined && this.loginIsTheProfiles(username)
    );
  }

  /** The token another run saved in the profile since this run read it, when this run may send it (tokenSavedByAnotherRun). */
  private tokenSavedMeanwhile(): string | undefined {
    let saved: Readonly<Record<string, string>> | undefined;
    try {
      saved = this.session.savedProfileIfStillItsOwn();
    } catch (error) {
      // A config file that cannot be read now: this run logs in, and saving its token says why it cannot.
      if (error instanceof ConfigError) return undefined;
      throw error;
    }
    return saved === undefined ? undefined : tokenSavedByAnotherRun(saved, this.setAside, this.clock.now());
  }

  /** Takes the token another run saved, and says so in the line a login of this run's own would have said. */
  private takeSaved(saved: string, reason: LoginReason): string {
    const cause = this.loginCause(reason);
    if (cause !== undefined)
      this.log(`${cause}; using the token another b2bctl run saved in the profile meanwhile, without logging in.`);
    this.token = saved;
    this.takenFromOtherRuns.add(saved);
    return saved;
  }

  /** Why b2bctl logs in by itself, as the line before its login says it; none where it logs in without a word. */
  private loginCause(reason: LoginReason): string | undefined {
    const profile = `profile "${this.session.profileName}"`;
    return {
      'no token': undefined,
      'other base URL': undefined,
      expired: `The token of ${profile} has expired`,
      refused: `The platform refused the token of ${profile}`,
      unsendable: `The token cached in ${profile} holds a character no HTTP header can carry`,
    }[reason];
  }

  private async login(
    credentials: { username: string; password: string },
    http: HttpClient,
    reason: LoginReason,
  ): Promise<string> {
    this.refuseInClear('the password (B2BCTL_PASSWORD)');
    const cause = this.loginCause(reason);
    if (cause !== undefined)
      this.log(
        reason === 'refused' ? `${cause}; logging in again.` : `${cause}; logging in again as ${credentials.username}.`,
      );
    let issued: IssuedToken;
    try {
      issued = await requestToken(http, tokenRoute(this.session), credentials);
    } catch (error) {
      // The network failed the login (no answer, a cut or refused connection), not the token route's answer.
      if (error instanceof UnavailableError && isRetryableNetworkError(error.cause))
        throw new LoginUnansweredError(error, credentials.username, http.urlFor(tokenRoute(this.session).path));
      throw error instanceof LoginRefusedError ? this.loginRefused(error, reason) : error;
    }
    this.token = issued.accessToken;
    this.issued.add(issued.accessToken);
    // A base URL or a username given for this run only (--base-url, B2BCTL_BASE_URL, B2BCTL_USERNAME) is not the
    // profile's: its token serves this run and the profile keeps its own store, user and token.
    if (!this.loginIsTheProfiles(credentials.username)) return issued.accessToken;
    const { fields, warning } = tokenFields(issued, this.clock.now(), this.session.requireBaseUrl());
    if (warning) this.log(warning);
    // Only the token and its times: the store and user are the profile's, and a `login` made while this run ran
    // may have changed them, so they are compared with what the run started with under the file's lock.
    const tokenOnly = {
      token: fields.token,
      tokenObtainedAt: fields.tokenObtainedAt,
      tokenExpiresAt: fields.tokenExpiresAt,
    };
    try {
      if (!this.session.saveIfStillItsOwn(tokenOnly)) this.profileChangedMeanwhile();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.log(`warning: the new token is used for this run only: ${error.message}`);
    }
    return issued.accessToken;
  }

  /** Said once a run: the profile was logged in elsewhere while it ran, so its renewed tokens stay in memory. */
  private profileChangedMeanwhile(): void {
    if (this.toldProfileChanged) return;
    this.toldProfileChanged = true;
    const now = this.session.store.read(this.session.profileName);
    const { baseUrl, username } = this.session.profile;
    this.log(
      `warning: profile "${this.session.profileName}" was changed while this run ran (it now names ${now?.baseUrl ?? 'no base URL'} as ${now?.username ?? 'no user'}; this run started with ${baseUrl ?? '?'} as ${username ?? '?'}): the renewed token is used for this run only and the profile is left as it is.`,
    );
  }

  /**
   * A login b2bctl tried by itself, refused: in a cron log (`-q`) this line is all there is, so it says that the
   * cached token had expired (or was refused, or there was none) and that the password came from B2BCTL_PASSWORD,
   * not from someone typing `b2bctl login`.
   */
  private loginRefused(refusal: LoginRefusedError, reason: LoginReason): AuthError {
    const profile = `profile "${this.session.profileName}"`;
    const cause = {
      'no token': `No token is cached for ${profile}`,
      expired: `The token of ${profile} expired`,
      refused: `The platform refused the token of ${profile}`,
      'other base URL': `The token of ${profile} was issued for ${this.session.profile.baseUrl ?? '?'}`,
      unsendable: `The token cached in ${profile} holds a character no HTTP header can carry`,
    }[reason];
    const loggingIn = reason === 'no token' || reason === 'other base URL' ? 'logging in' : 'logging in again';
    const origin = new URL(this.session.requireBaseUrl()).origin;
    // A token this profile had came from its route, most likely: the route is doubted only where there was none.
    const routeDoubted = refusal.routeElsewhere !== undefined && (reason === 'no token' || reason === 'other base URL');
    const fix = `check B2BCTL_PASSWORD, or run ${this.session.loginLine()}${routeDoubted ? `; else ${refusal.routeElsewhere}` : ''}`;
    return new AuthError(
      `${cause} and ${loggingIn} as ${refusal.username} at ${origin} with the password in B2BCTL_PASSWORD was refused (${refusal.answer}): ${refusal.checkFirst === undefined ? fix : `${refusal.checkFirst} ${fix}`}.`,
      { cause: refusal },
    );
  }

  private credentials(): { username: string; password: string } | undefined {
    const username = this.session.get('username');
    const password = secretFromEnvironment(this.env, 'B2BCTL_PASSWORD');
    return username && password ? { username, password } : undefined;
  }

  /** Whether this login is the profile's own: its base URL and its username. */
  private loginIsTheProfiles(username: string): boolean {
    const { baseUrl, username: profileUsername } = this.session.profile;
    return (
      baseUrl !== undefined &&
      sameBaseUrl(baseUrl, this.session.requireBaseUrl()) &&
      profileUsername !== undefined &&
      profileUsername === username
    );
  }
}

/**
 * A token given by the user (B2BCTL_TOKEN, --token, login --token-stdin) as it is sent: the line end a file or a variable may add is
 * dropped, and one that holds a character no header can carry is refused (exit 2) before anything is sent, not
 * reported as a network that cannot be reached.
 */
export function givenToken(value: string, source: 'B2BCTL_TOKEN' | '--token' | '--token-stdin'): string {
  const token = bearerTokenText(value);
  const unsendable = unsendableTokenCharacter(token);
  if (unsendable !== undefined)
    throw new UsageError(
      `The token given with ${source} holds ${unsendable}, which no HTTP header can carry: give the token alone, on one line.`,
    );
  return token;
}

export function tokenRoute(session: Session): {
  path: string;
  style: TokenRouteStyle;
  answers: TokenAnswerSettings;
  guessed: boolean;
} {
  return {
    path: session.get('paths.token'),
    style: session.get('auth.style'),
    guessed: session.setting('paths.token').source === 'default',
    answers: {
      accessToken: session.get('answers.token.accessToken'),
      expiresIn: session.get('answers.token.expiresIn'),
      expiresAt: session.get('answers.token.expiresAt'),
    },
  };
}

/**
 * The profile fields that cache an issued token, its expiry as b2bctl believes it, and the one warning line about
 * what the answer said of it when it was read otherwise or is far from the document's 12 hours.
 */
export function tokenFields(
  issued: IssuedToken,
  nowMs: number,
  baseUrl: string,
): { fields: Record<string, string>; warning: string | undefined } {
  const { expiresAtMs, warning } = believedTokenExpiry(issued, nowMs);
  return {
    fields: {
      baseUrl,
      token: issued.accessToken,
      tokenObtainedAt: new Date(nowMs).toISOString(),
      tokenExpiresAt: new Date(expiresAtMs).toISOString(),
    },
    warning,
  };
}

/**
 * A login b2bctl tried by itself that the network failed (no answer, a cut or refused connection): the line named the
 * platform's origin only, as if the run's own requests had failed (a user test); it names the token route and the user. The
 * request that needed the token never left, so a bulk run reports its records `not sent`, not `failed`, and stops:
 * every request needs the login, which has spent its retries (src/bulk/send-stage.ts).
 */
export class LoginUnansweredError extends UnavailableError {
  constructor(error: UnavailableError, username: string, route: URL) {
    super(`Logging in as ${username} (POST ${route.toString()}) failed: ${error.message}`, {
      cause: error,
      timedOutAfterMs: error.timedOutAfterMs,
      answeredStatus: error.answeredStatus,
    });
  }
}
