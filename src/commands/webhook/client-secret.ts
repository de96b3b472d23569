import { readFile } from 'node:fs/promises';
import type { Session } from '../../config/session.js';
import type { SettingKey, SettingValue } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { InputError, UsageError } from '../../base/errors.js';

/**
 * The webhook client secret, never from argv: B2BCTL_WEBHOOK_CLIENT_SECRET, else the file named by
 * --client-secret-file, else the file named by the profile's webhook.clientSecretFile setting.
 */
export async function webhookClientSecret(context: Context, secretFileFlag: string | undefined): Promise<string> {
  const fromEnvironment = context.env.B2BCTL_WEBHOOK_CLIENT_SECRET;
  if (fromEnvironment) return fromEnvironment;
  const file = secretFileFlag ?? (await profileSetting(context, 'webhook.clientSecretFile'));
  if (file === undefined) {
    throw new UsageError(
      'No webhook client secret: set B2BCTL_WEBHOOK_CLIENT_SECRET or pass --client-secret-file FILE (never the secret itself on the command line).',
    );
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(
      `Cannot read the client secret file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      {
        file,
        missing: true,
      },
    );
  }
  // A file written with `echo` ends with a newline that is not part of the secret.
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw new InputError(`The client secret file ${file} is empty.`, { file });
  return secret;
}

/**
 * A setting's value, or undefined when it is unset or no profile can be opened (the receiver runs without one);
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

/** The shortest client secret `webhook listen` takes: 32 characters, 128 bits as hex. */
export const minimumClientSecretLength = 32;

/** Refuses a client secret short enough to be guessed through the token endpoint (its length only is named). */
export function requireLongClientSecret(secret: string): void {
  if (secret.length >= minimumClientSecretLength) return;
  throw new UsageError(
    `The webhook client secret has ${secret.length} characters; the receiver needs at least ${minimumClientSecretLength}, so it cannot be guessed. Make one with: openssl rand -hex 32 > webhook-secret (then --client-secret-file webhook-secret, and give the same secret to the platform).`,
  );
}
