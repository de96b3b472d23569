import type { Context } from '../../context.js';
import { clientSecretOf, requireLongClientSecret } from '../../command-kit/client-secret.js';

/**
 * The webhook client secret, never from argv: the file named by --client-secret-file, else
 * B2BCTL_WEBHOOK_CLIENT_SECRET, else the file named by the profile's webhook.clientSecretFile setting.
 */
export async function webhookClientSecret(context: Context, secretFileFlag: string | undefined): Promise<string> {
  return clientSecretOf(context, {
    flagFile: secretFileFlag,
    environmentVariable: 'B2BCTL_WEBHOOK_CLIENT_SECRET',
    setting: 'webhook.clientSecretFile',
    name: 'webhook client secret',
  });
}

/** Refuses a receiver's client secret short enough to be guessed through the token endpoint. */
export function requireLongWebhookSecret(secret: string): void {
  requireLongClientSecret(secret, {
    secret: 'webhook client secret',
    server: 'the receiver',
    fileName: 'webhook-secret',
  });
}
