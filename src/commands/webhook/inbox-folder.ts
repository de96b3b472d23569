import { join } from 'node:path';
import type { Context } from '../../context.js';
import { configDirectory } from '../../config/location.js';

/**
 * The folder of the inbox when --inbox is not given: beside the profiles, in the config folder, one per profile.
 * Shared, `--profile lojaB webhook inbox` read store A's events and `replay` sent them to B's ERP (a user test). The
 * default profile keeps `webhooks/inbox`, where every inbox was before, so no existing one moves; another profile's is
 * `webhooks/inbox-<profile>`.
 */
export async function defaultInboxDirectory(context: Context): Promise<string> {
  const { openSession } = await import('../../config/session.js');
  // The profile as every command chooses it, its name checked as login checks it (no `/`, so `inbox-<profile>` is one
  // folder beside the others, never a path out of `webhooks`). One not made yet is no error: the receiver and its
  // readers need no log-in.
  const { profileName } = openSession({
    store: await context.profiles(),
    profileFlag: context.globals.profile,
    flags: {},
    env: context.env,
    allowNewProfile: true,
  });
  const folder = profileName === 'default' ? 'inbox' : `inbox-${profileName}`;
  return join(configDirectory(context.env), 'webhooks', folder);
}
