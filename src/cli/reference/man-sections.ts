import { everySetting } from '../../config/settings.js';

/** The exit codes every command shares (README "Exit codes", docs/output.md), as a man page's EXIT STATUS. */
export const exitStatuses: readonly [string, string][] = [
  [
    '0',
    'all done; a server (sandbox, webhook listen, tax serve) stopped by Ctrl-C, SIGTERM or SIGHUP once the requests in flight are answered',
  ],
  ['1', 'some records failed or were rejected (the report says which); an error answer from the platform'],
  ['2', 'usage error: a bad flag or value, a missing setting, a --resume report of another run; nothing sent'],
  ['65', 'the input is invalid, or has fewer records than --min-records; nothing sent'],
  ['66', 'the input file is missing or unreadable'],
  ['69', 'the platform is unavailable (unreachable, or failing after retries)'],
  [
    '75',
    'interrupted (Ctrl-C, SIGTERM, SIGHUP, a failed write: the resume command is printed; a server stopped so exits 0), or the profile is locked',
  ],
  ['77', 'not logged in, login refused, or forbidden'],
  ['129, 130, 143', 'SIGHUP, SIGINT or SIGTERM at a prompt, where there is nothing to finish'],
  ['141', 'orders poll: the reader closed its output early; the cursor did not move'],
];

/** Variables every command reads beside the settings table's: where profiles live, which one, how to log. */
const processVariables: readonly [string, string][] = [
  ['B2BCTL_CONFIG_DIR', 'the config folder (else $XDG_CONFIG_HOME/b2bctl, else ~/.config/b2bctl)'],
  ['XDG_CONFIG_HOME', 'the base of the config folder when B2BCTL_CONFIG_DIR is unset'],
  ['B2BCTL_PROFILE', 'the profile, as --profile (default "default")'],
  ['B2BCTL_PASSWORD', 'the password a login, or an expired token, is renewed with (never a flag nor a setting)'],
  ['B2BCTL_LOG_FORMAT', 'text, plain or json, as --log-format'],
  ['NO_COLOR', 'no colour, as --no-color; so does TERM=dumb'],
  ['TERM', 'dumb: no colour, and a bulk run draws no progress bar (its progress lines, as off a terminal)'],
];

/** ENVIRONMENT: the variables above, then each setting's own, from the typed settings table. */
export function environmentEntries(): [string, string][] {
  const fromSettings = everySetting.flatMap((definition) =>
    definition.env
      ? [[definition.env, `the ${definition.key} setting: ${definition.description}`] as [string, string]]
      : [],
  );
  return [...processVariables, ...fromSettings];
}

/** FILES: what b2bctl keeps, and where. */
export const fileEntries: readonly [string, string][] = [
  [
    '$B2BCTL_CONFIG_DIR/config.json',
    'the profiles: base URL, user, cached token, settings (mode 0600, in a 0700 folder)',
  ],
  ['$B2BCTL_CONFIG_DIR/cursors/', "where each profile's orders poll continues from"],
  [
    'NAME.report-TIMESTAMP.csv',
    "the report of a bulk run, beside its input (or in the outputDir setting's folder), with its .meta.json",
  ],
  [
    'NAME.errors-TIMESTAMP.csv',
    "the failed and invalid records of a bulk run, in the input's own columns, to fix and feed back",
  ],
];
