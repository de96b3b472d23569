import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Session } from '../config/session.js';
import type { SettingKey, SettingValue } from '../config/settings.js';
import type { Context } from '../context.js';
import { checkSecretFileLink } from '../config/folder-safety.js';
import { B2bctlError, ExitCode, InputError, UsageError } from '../base/errors.js';
import { credentialCharacterProblem } from '../domain/bearer-token.js';
import { secretFromEnvironment } from '../net/environment-secret.js';
import { currentUserName, otherWriters, shownMode, userName } from '../lib/file-owners.js';
import { readRegularFile } from '../lib/named-file.js';
import { shellWord } from '../lib/shell-word.js';
import { printable } from '../lib/printable.js';

/** Where a server's client secret may come from: never argv, where `ps` shows it. */
export interface ClientSecretSource {
  /** The file named by `--client-secret-file`: given, it wins, as a flag wins over the environment everywhere. */
  flagFile: string | undefined;
  /** The variable holding the secret itself; it wins over the profile's setting. */
  environmentVariable: string;
  /** The profile's setting naming the file (read only without the flag and the variable). */
  setting: 'tax.clientSecretFile' | 'webhook.clientSecretFile';
  /** How messages name it: "webhook client secret". */
  name: string;
}

/**
 * The client secret a token endpoint accepts: the file of `--client-secret-file`, else the environment variable,
 * else the file of the profile's setting (a file's last newline dropped). A secret left in the shell's environment
 * must not silently override the file the command line names: the platform's token requests would then be refused.
 */
export async function clientSecretOf(context: Context, source: ClientSecretSource): Promise<string> {
  if (source.flagFile !== undefined) return secretInFile(source.flagFile, context);
  const fromEnvironment = secretFromEnvironment(context.env, source.environmentVariable);
  if (fromEnvironment !== undefined) return fromEnvironment;
  const file = await profileSetting(context, source.setting);
  if (file === undefined) {
    // The setting is the third way: named here, a user who set it under another profile sees which one is read.
    const profileFlag = await context.session().then(
      (session) => session.profileFlag(),
      () => '',
    );
    throw new UsageError(
      `No ${source.name}: set ${source.environmentVariable}, pass --client-secret-file FILE, or name the file in the profile's ${source.setting} setting (b2bctl config set ${source.setting} /path/to/secret${profileFlag}); never the secret itself on the command line.`,
    );
  }
  return secretInFile(file, context, await settingNamed(context, source.setting, file));
}

/**
 * Where a file named by a setting came from, for the message when it cannot be read: the setting and its profile,
 * and for a relative path the folder it was read from (a service's is not the one `config set` ran in), with the fix.
 */
async function settingNamed(context: Context, key: string, file: string): Promise<string> {
  const session = await context.session();
  const from = isAbsolute(file) ? '' : `, read from ${process.cwd()} as ${resolve(file)}`;
  return `, named by the ${key} setting of profile "${session.profileName}"${from}; set it to the file's absolute path: b2bctl config set ${key} /path/to/secret${session.profileFlag()}`;
}

async function secretInFile(file: string, context: Context, named = ''): Promise<string> {
  let text: string;
  try {
    text = (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(`Cannot read the client secret file ${printable(file)} (${reason})${named}.`, {
      file,
      missing: true,
    });
  }
  // A file written with `echo` ends with a newline, an editor may add another or a space: none is part of a secret,
  // and kept, it made the receiver refuse the platform while `webhook trigger` with the same file passed.
  const secret = text.trim();
  if (secret === '') throw new InputError(`The client secret file ${printable(file)} is empty.`, { file });
  checkSecretFile(file, 'the client secret file', context);
  return checkedSecretCharacters(secret, `The client secret file ${printable(file)}`);
}

/**
 * Refuses (exit 2) a client secret holding a control character: a file's second line or a Windows line end inside
 * it, which the platform (or the receiver) would refuse as a wrong secret, and which `webhook trigger --style headers`
 * would send as a header of its own. `source` names the variable or the file.
 */
export function checkedSecretCharacters(secret: string, source: string): string {
  const problem = credentialCharacterProblem(secret, source, false);
  if (problem !== undefined) throw new UsageError(problem);
  return secret;
}

/**
 * Refuses (exit 77) a secret file another user owns, or that its group or others may write: they know the secret,
 * or can change it, and with it ask tokens and post forged events, or compute taxes as the platform (with a TLS key:
 * answer as the receiver). The rule config.json and the orders cursor follow; root owning it is fine. Says once that
 * a secret file others may only read is not private (as ssh says of a key file): chmod 600 fixes it. One reached
 * through another user's symbolic link is refused too (checkSecretFileLink); through a link of this user's or root's,
 * the messages name the file it leads to, which the chmod would change.
 * `what` names the file's kind: "the client secret file", "the TLS private key"; `remake` how to make one of your own
 * (a key is no `openssl rand` text).
 */
export function checkSecretFile(
  file: string,
  what: string,
  context: Context,
  remake = 'Make one of your own (umask 077; openssl rand -hex 32 > FILE)',
): void {
  // Through another user's link, the file is whichever they choose: refused before its owner or mode is judged.
  checkSecretFileLink(file, capitalised(what), `${remake} and name that file itself`);
  let stats: { uid: number; mode: number };
  try {
    stats = statSync(file);
  } catch {
    return;
  }
  // The owner, mode and fix are those of the file a link (of this user's or root's) leads to: a chmod or chown
  // given the link's name would change its target anyway, named here so the user sees which file that is.
  const target = fileBehindLinks(file);
  const shown = target === file ? printable(file) : `${printable(file)} (a link to ${printable(target)})`;
  const uid = process.getuid?.();
  const fix = `${remake}, or sudo chown ${currentUserName(uid ?? 0)} ${shellWord(target)} && chmod 600 ${shellWord(target)} if you trust it`;
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0)
    throw new B2bctlError(
      `${capitalised(what)} ${shown} belongs to ${userName(stats.uid)}, not to ${currentUserName(uid)}: that user knows it and can change it. ${fix}.`,
      ExitCode.authFailed,
    );
  const writers = uid === undefined ? undefined : otherWriters(stats.mode);
  if (writers !== undefined)
    throw new B2bctlError(
      `${capitalised(what)} ${shown} is writable by ${writers} (mode ${shownMode(stats.mode)}): they could change it. Run chmod 600 ${shellWord(target)}, and check what it holds.`,
      ExitCode.authFailed,
    );
  if ((stats.mode & 0o077) !== 0)
    context.log.warn(
      `warning: ${what} ${shown} may be read by other users (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); run chmod 600 ${shellWord(target)}.`,
    );
}

/** The file a path's links lead to, as the user named it when it is no link (or cannot be resolved). */
function fileBehindLinks(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch {
    return file;
  }
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** The shortest client secret a token endpoint takes: 32 characters, 128 bits as hex. */
export const minimumClientSecretLength = 32;

/**
 * Refuses a client secret short enough to be guessed through the token endpoint (its length only is named).
 * `server` names who needs it ("the receiver"), `fileName` the file the advice writes. The advice's umask makes the
 * file 0600 as it is created: under the usual umask 022 it would be 0644, which the next start warns about.
 */
export function requireLongClientSecret(secret: string, names: { secret: string; server: string; fileName: string }) {
  requireLongSecret(secret, {
    secret: names.secret,
    server: names.server,
    minimum: minimumClientSecretLength,
    makeOne: `(umask 077; openssl rand -hex 32 > ${names.fileName}) (then --client-secret-file ${names.fileName}, and give the same secret to the platform)`,
  });
}

/**
 * Refuses (exit 2) a secret a server checks callers against that is short enough to be guessed, naming its length
 * only (never the secret), with the command that makes a long one (`makeOne`). Every such secret says it alike:
 * the client secrets, and `tax serve`'s fixed token and password.
 */
export function requireLongSecret(
  secret: string,
  rule: { secret: string; server: string; minimum: number; makeOne: string },
): void {
  if (secret.length >= rule.minimum) return;
  throw new UsageError(
    `The ${rule.secret} has ${secret.length} characters; ${rule.server} needs at least ${rule.minimum}, so it cannot be guessed. Make one with: ${rule.makeOne}.`,
  );
}

/**
 * A setting's value, or undefined when it is unset or no profile can be opened (a server runs without one);
 * a bad value is still a usage error naming it.
 */
export async function profileSetting<Key extends SettingKey>(
  context: Context,
  key: Key,
): Promise<SettingValue<Key> | undefined> {
  let session: Session;
  try {
    session = await context.session();
  } catch {
    return undefined;
  }
  return session.get(key);
}
