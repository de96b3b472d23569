import { createHmac, randomBytes } from 'node:crypto';
import { countOf } from '../lib/plural.js';
import { formsMaskedAnywhere, redacted, secretsOfAuthorization } from '../lib/secret-values.js';
import { secretFromEnvironment } from '../net/environment-secret.js';
import type { DeadLetterMasked, EventStore } from './store/types.js';

/**
 * Older builds kept the ERP's echo of its forward credential in clear in dead letters (an auth layer's
 * "token X not valid"), which `webhook dead list` and its CSV print for as long as the letter is kept. New ones are
 * masked as they are made (consumers.ts); the kept ones are masked here, when the receiver starts and when `webhook
 * dead list` runs with the credential configured: the same strings redactSecrets replaces, by one UPDATE per store.
 *
 * The same builds kept an `--exec` command's last three lines of output (stdout and stderr) in clear in its dead
 * letter's error, and a command may print the secrets it was given (`curl: login ERP_TOKEN=… refused`). Its
 * environment itself is kept nowhere: only the clean set exec-environment.ts builds was ever given once output was
 * kept, so those secrets are the `--exec-env` values and the command line's own assignments (secretsGivenTo). The
 * receiver masks them at its start, as new output is masked (command-output.ts); `webhook dead list` cannot, as the
 * store does not keep which variables a receiver passed.
 *
 * A start must not read every dead letter again: each masked form is remembered by its fingerprint, an HMAC-SHA256
 * under a random key of this inbox, kept in the inbox itself. Never the secret, nor a plain hash of it: a token
 * guessed offline against a hash in a backup of the inbox would be confirmed; without the key it cannot be, and
 * with the key (in the same inbox) the fingerprint still only confirms a guess, it gives nothing back.
 */
export async function scrubDeadLetters(store: EventStore, secrets: readonly string[]): Promise<DeadLetterMasked> {
  // Shorter values are masked only where they stand alone, which SQL's replace() cannot tell: they are masked when
  // shown (webhook dead list), not in the store.
  const forms = formsMaskedAnywhere(secrets);
  if (forms.length === 0) return { scanned: 0, changed: 0 };
  return store.maskInDeadLetters({
    forms,
    mask: redacted,
    fingerprint: (key, form) => createHmac('sha256', Buffer.from(key, 'base64')).update(form).digest('base64'),
    freshKey: () => randomBytes(32).toString('base64'),
  });
}

/**
 * The forward credential given in the environment (B2BCTL_WEBHOOK_FORWARD_TOKEN, _BASIC), as the receiver would send
 * it and redact it (consumers.ts): the token, or Basic's base64 and password.
 */
export function forwardCredentialOfEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  const token = secretFromEnvironment(env, 'B2BCTL_WEBHOOK_FORWARD_TOKEN', { sentInHeader: true });
  const pair = secretFromEnvironment(env, 'B2BCTL_WEBHOOK_FORWARD_BASIC');
  return [
    ...(token === undefined ? [] : secretsOfAuthorization(`Bearer ${token}`)),
    ...(pair === undefined ? [] : secretsOfAuthorization(`Basic ${Buffer.from(pair).toString('base64')}`)),
  ];
}

/** Whose secrets a scrub masked: the ERP's forward credential, or those given to an `--exec` command. */
export type ScrubbedSecrets = 'forward credential' | 'exec secrets';

/** The line a scrub that changed something logs: an operator learns the kept letters were rewritten, and why. */
export function scrubbedLine(
  masked: DeadLetterMasked,
  what: ScrubbedSecrets = 'forward credential',
): string | undefined {
  if (masked.changed === 0) return undefined;
  const secrets =
    what === 'forward credential'
      ? "the ERP's forward credential"
      : 'the secrets given to the --exec command (its --exec-env values and the variables its command line sets)';
  return `Masked ${secrets} in ${countOf(masked.changed, 'dead letters')} kept by an earlier b2bctl.`;
}
