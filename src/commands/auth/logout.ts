import type { Context } from '../../context.js';
import { warnOfTokenInEnvironment } from './token-in-environment.js';

export type LogoutOptions = Record<string, never>;

/** Forgets the cached token of a profile; the base URL and username stay for the next login. */
export async function run(_options: LogoutOptions, context: Context): Promise<void> {
  const session = await context.session();
  if (!session.profile.token) {
    context.log.info(`Profile "${session.profileName}" holds no token; nothing to do.`);
    warnOfTokenInEnvironment(context);
    return;
  }
  session.save({ token: undefined, tokenExpiresAt: undefined, tokenObtainedAt: undefined });
  context.log.info(
    `Logged out of profile "${session.profileName}". Run b2bctl login${session.profileName === 'default' ? '' : ` --profile ${session.profileName}`} to log in again.`,
  );
  warnOfTokenInEnvironment(context);
}
