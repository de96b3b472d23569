import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { LoginOptions } from './login.js';
import type { LogoutOptions } from './logout.js';
import type { WhoamiOptions } from './whoami.js';

interface LoginFlags {
  username?: string;
  passwordStdin?: true;
  tokenStdin?: true;
  verify: boolean;
  allowHttp?: true;
}

/** `b2bctl login|logout|whoami`: the profile's credentials, three top-level words in one room. */
export function register(program: Command, dispatch: Dispatch): void {
  program
    .command('login')
    .summary('log in with the integration user and cache the 12-hour token in the profile')
    .description(
      "Logs in to the platform as the store's integration user and keeps the token it is given (valid for 12 hours) in the profile, with the base URL and user, in config.json of the config folder (0600). Run it once per profile before any command that talks to the store; later commands renew an expired token themselves when B2BCTL_PASSWORD is set. The password is read from a masked prompt, --password-stdin or B2BCTL_PASSWORD, never from an argument; a token issued by other means is stored with --token-stdin. Credentials go over plain http:// only to this machine unless --allow-http says otherwise. The platform document does not show the token route: b2bctl asks POST /v1/auth/token with a JSON body unless the settings paths.token and auth.style (json, form or basic) say otherwise (b2bctl config set paths.token /api/login); docs/platform.md.",
    )
    .option('--username <email>', 'integration user (env B2BCTL_USERNAME); prompted for on a terminal')
    .option('--password-stdin', 'read the password from stdin (or set B2BCTL_PASSWORD); never pass it as an argument')
    .option('--token-stdin', 'store a pre-issued token piped on stdin')
    .option('--no-verify', 'store a pre-issued token without the one request that checks it')
    .option('--allow-http', 'send the password or token over plain http:// to another machine (readable on the way)')
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<LoginFlags>();
      return dispatch<LoginOptions>(command, async () => (await import('./login.js')).run, {
        username: flags.username,
        passwordStdin: flags.passwordStdin === true,
        tokenStdin: flags.tokenStdin === true,
        verify: flags.verify !== false,
        allowHttp: flags.allowHttp === true,
      });
    });

  program
    .command('logout')
    .summary("forget the profile's cached token")
    .description(
      "Removes the cached token from the profile, so the next command that talks to the store needs a login again. The profile's base URL, user and settings stay in config.json; nothing is sent to the platform. Use it when a machine should no longer act for the store, or to test a fresh login.",
    )
    .action((_flags: unknown, command: Command) =>
      dispatch<LogoutOptions>(command, async () => (await import('./logout.js')).run, {}),
    );

  program
    .command('whoami')
    .summary('show the profile, base URL, user and token expiry (never the token)')
    .description(
      "Says who b2bctl would act as: the profile in use, its base URL, the integration user, where the token comes from (the profile or B2BCTL_TOKEN) and whether it is valid, expired or of unknown expiry, with the time it expires. It reads only the profile and the environment and sends nothing; the token itself is never printed. Run it after a login, or in a cron job's environment to see which store and folder that job would use: a setting whose value is refused there (B2BCTL_TIMEOUT=abc) stops it with exit 2 and a line naming it, as it would stop the job.",
    )
    .action((_flags: unknown, command: Command) =>
      dispatch<WhoamiOptions>(command, async () => (await import('./whoami.js')).run, {}),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  login: [
    'b2bctl login --base-url https://api.mystore.com.br --username erp@mystore.com.br',
    'printf \'%s\\n\' "$PASSWORD" | b2bctl login --username erp@mystore.com.br --password-stdin',
    'b2bctl login --profile prod --token-stdin < token.txt',
  ],
  logout: ['b2bctl logout', 'b2bctl logout --profile prod'],
  whoami: ['b2bctl whoami', 'b2bctl whoami --profile prod -o json'],
};
