import { warnOfTokenInEnvironment } from './token-in-environment.js';
import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../base/errors.js';
import { readSecretFromStdin } from '../../io/read-stdin.js';
import { secretFromEnvironment } from '../../net/environment-secret.js';
import { isPlainHttpOffMachine, refusePlainHttp } from '../../net/plain-http.js';
import type { Session } from '../../config/session.js';
import { platformUrl, withGuessedScheme } from '../../config/setting-parsers.js';
import { urlsShownSafely } from '../../lib/shown-target.js';
import { requestToken } from '../../platform/auth.js';
import { givenToken, tokenFields, tokenRoute } from '../../platform/token-source.js';

export interface LoginOptions {
  username?: string;
  passwordStdin: boolean;
  tokenStdin: boolean;
  /** `--no-verify`: store a pre-issued token without the one request that checks it. */
  verify?: boolean;
  /** `--allow-http`: send the password or token over plain HTTP to another machine. */
  allowHttp?: boolean;
}

/** Logs in with the integration user (or stores a pre-issued token) and caches the token in the profile. */
export async function run(options: LoginOptions, context: Context): Promise<void> {
  const presetToken = context.globals.token;
  if ([options.passwordStdin, options.tokenStdin, presetToken !== undefined].filter(Boolean).length > 1) {
    throw new UsageError('Use only one of --password-stdin, --token and --token-stdin.');
  }
  const session = await context.session({ allowNewProfile: true });
  // Before the password is asked for and a token issued: a config folder that cannot hold it fails first.
  (await context.profiles()).checkWritable();
  const checkedBaseUrl = await baseUrlToLogInTo(session, context);
  const credential = options.tokenStdin || presetToken !== undefined ? 'the token' : 'the password';
  const allowHttp = options.allowHttp === true || session.get('http.allowPlain') === 'true';
  // Before the password is asked for: refused at once, not after it was typed.
  if (options.verify !== false || credential === 'the password')
    refusePlainHttp(new URL(checkedBaseUrl), credential, allowHttp, undefined, context.env);
  // An automatic re-login (B2BCTL_PASSWORD) of this profile may then send the password as this login did.
  const plainHttpAllowed = options.allowHttp === true && isPlainHttpOffMachine(new URL(checkedBaseUrl), context.env);

  if (options.tokenStdin || presetToken !== undefined) {
    if (options.tokenStdin && context.io.isStdinTTY)
      throw new UsageError(
        '--token-stdin reads a pipe, and stdin is a terminal where the token would be echoed: pipe it (cat FILE | b2bctl login --token-stdin).',
      );
    const given = options.tokenStdin ? await readSecretFromStdin(context.io.stdin) : (presetToken ?? '');
    const token = givenToken(given, options.tokenStdin ? '--token-stdin' : '--token');
    if (!token) throw new UsageError('The token is empty: pipe it with --token-stdin.');
    if (options.verify !== false) await verifyToken(context, checkedBaseUrl, session.get('paths.sellers'), token);
    session.save({
      baseUrl: checkedBaseUrl,
      token,
      tokenObtainedAt: new Date(context.clock.now()).toISOString(),
      tokenExpiresAt: undefined,
      username: options.username ?? session.profile.username,
      ...(plainHttpAllowed ? { 'http.allowPlain': 'true' } : {}),
    });
    context.log.info(
      `Stored a pre-issued token for profile "${session.profileName}" at ${checkedBaseUrl}. Its expiry is unknown: when the platform refuses it, b2bctl logs in again if B2BCTL_PASSWORD and a username (--username, B2BCTL_USERNAME) are there, and otherwise asks you to run b2bctl login.`,
    );
    return;
  }

  if (options.passwordStdin && context.io.isStdinTTY)
    throw new UsageError(
      '--password-stdin reads a pipe, and stdin is a terminal where the password would be echoed: pipe it (cat FILE | b2bctl login --password-stdin), or run b2bctl login to be asked without echo.',
    );
  const username = options.username ?? session.get('username') ?? (await askFor(context, 'username'));
  // An integration user is an e-mail address: a space is a paste or quoting slip, and the platform would only say
  // "refused" (exit 77) after the password was sent. Said here, before anything is sent.
  if (/\s/.test(username)) {
    const source = options.username !== undefined ? '--username' : (session.setting('username').source ?? 'the prompt');
    throw new UsageError(
      `The username "${username}" (from ${source}) has a space in it; the integration user is an e-mail address such as erp@mystore.com.br. Remove the space.`,
    );
  }
  const password = options.passwordStdin
    ? await readSecretFromStdin(context.io.stdin)
    : (secretFromEnvironment(context.env, 'B2BCTL_PASSWORD') ??
      (await askFor(context, 'password', `${username} at ${checkedBaseUrl} (profile "${session.profileName}")`)));
  if (!password) throw new UsageError('The password is empty: pipe it with --password-stdin or set B2BCTL_PASSWORD.');

  const http = await context.httpClient(checkedBaseUrl);
  const issued = await requestToken(http, tokenRoute(session), { username, password });
  const { fields, warning } = tokenFields(issued, context.clock.now(), checkedBaseUrl);
  session.save({ ...fields, username, ...(plainHttpAllowed ? { 'http.allowPlain': 'true' } : {}) });
  if (warning) context.log.warn(warning);
  context.log.info(
    `Logged in to ${checkedBaseUrl} as ${username} (profile "${session.profileName}"); the token is valid until ${fields.tokenExpiresAt}.`,
  );
  warnOfTokenInEnvironment(context);
}

/**
 * The base URL this login goes to: the flag's, the environment's or the profile's, else one asked for on a terminal
 * and saved to the profile before the user and password are asked for. A profile's value that b2bctl refuses (saved
 * by an older b2bctl, or by hand) is asked for again on a terminal, and the answer replaces it: refused, it stopped
 * this login before it could ask, and every later command with it. A flag's or variable's value is the caller's to
 * fix, and without a terminal so is the profile's: those stop the login with the setting's own error.
 */
async function baseUrlToLogInTo(session: Session, context: Context): Promise<string> {
  const setting = session.setting('baseUrl');
  const refused = setting.source === 'profile' && setting.value !== undefined && !platformUrl.parse(setting.value).ok;
  if ((setting.value !== undefined && !refused) || !context.canPrompt()) return session.requireBaseUrl();
  let offered: string | undefined;
  if (setting.value !== undefined) {
    offered = offeredBaseUrl(setting.value);
    context.log.warn(
      `The base URL saved in profile "${session.profileName}", "${urlsShownSafely(setting.value)}", ${refusal(setting.value)}: give the right one, and it replaces it.${offered ? ` Enter takes ${offered}.` : ''}`,
    );
  }
  const baseUrl = await askForBaseUrl(context, offered);
  // The token cached beside a base URL that could not be used was never issued by the one given now.
  session.save({
    baseUrl,
    ...(refused ? { token: undefined, tokenObtainedAt: undefined, tokenExpiresAt: undefined } : {}),
  });
  return session.requireBaseUrl();
}

/**
 * Asks until the answer is a base URL b2bctl can use, as the prompt asks again for an empty one: saved unchecked, a
 * host typed without its scheme (copied from a browser's address bar) stopped every later command. The scheme it
 * seems to lack is offered, Enter takes it.
 */
async function askForBaseUrl(context: Context, offered: string | undefined): Promise<string> {
  const prompter = await context.prompter();
  let offer = offered;
  for (;;) {
    const answer = (await prompter.input('Base URL of the platform API', offer)).trim();
    if (platformUrl.parse(answer).ok) return answer;
    offer = offeredBaseUrl(answer);
    context.log.warn(
      `The base URL "${urlsShownSafely(answer)}" (from the prompt) ${refusal(answer)}; it was not saved. ${offer ? `Enter takes ${offer}, or type another.` : 'Type it again.'}`,
    );
  }
}

/** What the base URL's parser says is wrong with `text`. */
function refusal(text: string): string {
  const parsed = platformUrl.parse(text);
  return parsed.ok ? '' : parsed.problem;
}

/** `text` with the scheme it seems to lack (https:// for a host off this machine), when that makes a base URL. */
function offeredBaseUrl(text: string): string | undefined {
  const guessed = withGuessedScheme(text.trim());
  return guessed !== undefined && platformUrl.parse(guessed).ok ? guessed : undefined;
}

/** Asks for the user, or for the password of `whose` (user, store and profile: with several, the one to type). */
async function askFor(context: Context, what: 'username' | 'password', whose = ''): Promise<string> {
  if (!context.canPrompt()) {
    const how =
      what === 'username'
        ? 'pass --username EMAIL or set B2BCTL_USERNAME'
        : 'pipe it with --password-stdin or set B2BCTL_PASSWORD';
    // Say which of the reasons holds: --no-input on a terminal is a choice, not a missing terminal.
    const why = !context.globals.input
      ? '--no-input says not to ask'
      : context.io.isStdinTTY && context.io.isStderrTTY
        ? 'CI is set, where no one answers a prompt'
        : 'no terminal to ask on';
    throw new UsageError(`No ${what} for login and ${why}: ${how}.`);
  }
  const prompter = await context.prompter();
  return what === 'username' ? prompter.input('Integration user (e-mail)') : prompter.password(`Password of ${whose}`);
}

/**
 * One cheap authenticated request (the first sales rep) before a pre-issued token is stored, so a
 * mistyped or revoked token fails at login rather than in the night's push. Only a refusal (401/403)
 * fails it: another answer says nothing about the token (a route this store names differently).
 */
async function verifyToken(context: Context, baseUrl: string, path: string | undefined, token: string): Promise<void> {
  if (!path) return;
  const http = await context.httpClient(baseUrl);
  const response = await http.request({
    method: 'GET',
    path,
    query: { limit: 1 },
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (response.status === 401 || response.status === 403)
    throw new AuthError(
      `The platform refused this token (HTTP ${response.status} on GET ${path}); nothing was stored. Check it, or log in with the username and password.`,
    );
  if (response.status >= 300)
    context.log.warn(
      `warning: the token could not be checked (HTTP ${response.status} on GET ${path}); it was stored anyway.`,
    );
}
