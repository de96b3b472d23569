import { everySetting } from '../../config/settings.js';

const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;
const cell = (text: string) => text.replaceAll('|', '\\|');

/** docs/settings.md: every setting of the typed settings table, its variable, default, accepted value and meaning. */
export function settingsPage(): string {
  const rows = everySetting.map((definition) =>
    [
      code(definition.key),
      definition.env ? code(definition.env) : '',
      definition.defaultValue !== undefined ? code(definition.defaultValue) : '',
      cell(definition.parser?.expects ?? 'text'),
      cell(definition.description),
    ].join(' | '),
  );
  const lines = [
    '<!-- Generated from src/config/settings.ts by `npm run docs:gen`; edit the settings table, not this page. -->',
    '',
    '# Settings',
    '',
    'Every value is resolved flag > environment variable > profile > default. `b2bctl config list` shows each',
    "setting's value and where it comes from; `b2bctl config set KEY VALUE` stores one in the profile, and",
    '`b2bctl config unset KEY` removes it; `b2bctl config set --help` lists the keys. A value the parser refuses',
    'stops the command with exit 2 and one line naming the key, the value and where it came from; `config get` does',
    "the same, and `config list` shows the value (to find it; its table marks the source `(invalid)`; a URL's user and",
    'password shown as `***@` and its query values as `***`, as every other command shows them) and then exits',
    '2 with that line. A key in the profile that is no setting (a typo made editing `config.json` by hand,',
    '`http.timout`) is ignored by every command, which warns of it once a run, naming the setting it is nearest to;',
    '`config list` lists it last, its source `profile (unknown)`, and `config unset KEY` removes it. A base URL saved without its scheme by an older `login` is asked for again by the next',
    '`b2bctl login` on a terminal, the scheme it lacks offered. Times take a unit',
    '(`30s`, `10m`), in the profile, the variable and the flag alike (`--timeout 30s` is `B2BCTL_TIMEOUT=30s`, and',
    'both refuse what `config set http.timeout` refuses); a bare number keeps its old meaning (milliseconds for',
    '`http.timeout`, seconds for the `orders.*` times). A relative path given to `config set` for a setting that',
    'names a file or folder (`outputDir`, `tax.shape`, `tax.clientSecretFile`, `webhook.clientSecretFile`, and',
    '`stock.schema` or `orders.routes` when not inline JSON) is stored absolute, resolved against the current',
    "folder, as the confirmation line says: a profile is read from any folder (cron's, a unit's",
    '`WorkingDirectory=/`). The environment variables and flags are read where the command runs, as given.',
    '',
    '`b2bctl config get KEY` prints the value bare on one line, piped or not (`URL=$(b2bctl config get baseUrl)`).',
    'With `-o json` or `-o ndjson` it prints that value as a JSON string, the `value` that `config list -o json`',
    'gives for the key, as written (`"30s"` keeps its unit, and `config set` takes it back); with `-o csv` (or',
    '`--excel`), the `key,value` header and row of `config list -o csv`; `-o table` is the bare value.',
    '',
    'Profiles live in `config.json` (mode 0600, in a 0700 folder) under `$B2BCTL_CONFIG_DIR`, else',
    '`$XDG_CONFIG_HOME/b2bctl`, else `~/.config/b2bctl`. A relative `XDG_CONFIG_HOME` is ignored, as the XDG Base',
    'Directory spec says; a relative `B2BCTL_CONFIG_DIR` is taken against the current folder (as git takes `GIT_DIR`),',
    'and messages name it absolute: give a crontab line an absolute one, as a job may start in another folder. Choose one with `--profile NAME` or `B2BCTL_PROFILE`',
    '(default `default`; a name holds letters, digits, `.`, `_` and `-`, at most 64 of them, as the files of its jobs',
    '(`locks/NAME.stock-push.lock`, `cursors/NAME.orders-poll.json`) are named after it, and is none of `__proto__`, `constructor` and',
    '`prototype`, refused as names of an object\'s workings, not profiles). An empty `--profile`, `--base-url` or `--token` (`--profile "$STORE"` with the variable',
    'unset) is refused, exit 2, rather than read as the default: a script meant for one store never acts on another;',
    'an empty variable counts as unset. A cron user without a home needs only `B2BCTL_CONFIG_DIR`, or no profile at all with',
    '`B2BCTL_BASE_URL` and `B2BCTL_TOKEN` (or the user and password) in the environment. Where the config folder',
    'cannot be written (a read-only home, `HOME=/nonexistent`: b2bctl never makes a home that is not there, even as',
    'root, so `config set` and `login` there say to set `B2BCTL_CONFIG_DIR`, exit 2), the locks of `stock push`, `orders update` and',
    '`orders poll` go to `$XDG_RUNTIME_DIR/b2bctl/locks`, else `b2bctl-UID/locks` in the temporary folder (made 0700;',
    'one another user made first, or a link in its place, is refused), where two runs of one profile still exclude',
    'each other; `orders poll` then needs `--cursor FILE`, as its own cursor is kept in the config folder (without',
    'it the poll is refused before fetching anything, exit 2, saying so). The password is never a setting: it comes',
    'from the prompt, `--password-stdin` or `B2BCTL_PASSWORD`. A secret in a variable (`B2BCTL_PASSWORD`, the tax',
    "and client secrets, the ERP's forward credential) is read one way by every command: one line end at its end",
    'dropped (`VAR="$(cat file)"` of a Windows file keeps a CR), a line break inside refused, exit 2, naming it',
    '([security.md](security.md)).',
    '',
    '| key | env | default | value | meaning |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ];
  return `${lines.join('\n')}\n`;
}
