import { join } from 'node:path';
import type { Context } from '../../context.js';
import { configDirectory } from '../../config/location.js';
import { chosenProfileName } from '../../config/profile-name.js';

/**
 * The folder of the inbox when --inbox is not given: beside the profiles, in the config folder, one per profile.
 * Shared, `--profile lojaB webhook inbox` read store A's events and `replay` sent them to B's ERP (a user test). The
 * default profile keeps `webhooks/inbox`, where every inbox was before, so no existing one moves; another profile's is
 * `webhooks/inbox-<profile>`: a profile name holds no `/` (chosenProfileName), so it is one folder beside it, never
 * another profile's nor outside `webhooks`.
 */
export function defaultInboxDirectory(context: Pick<Context, 'env' | 'globals'>): string {
  const profile = chosenProfileName(context.globals.profile, context.env);
  return join(configDirectory(context.env), 'webhooks', profile === 'default' ? 'inbox' : `inbox-${profile}`);
}
