import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { shellWord } from '../lib/shell-word.js';

/**
 * Where profiles live: B2BCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/b2bctl, else ~/.config/b2bctl; always an absolute
 * path, so that every message names the folder a job really used.
 *
 * A relative XDG_CONFIG_HOME is ignored, as the XDG Base Directory spec says (a relative path there is invalid): taken
 * as it was, each folder a command was started from had profiles of its own (a user test). B2BCTL_CONFIG_DIR is
 * b2bctl's own and a deliberate choice, so a relative one is taken against the current folder, as git takes GIT_DIR
 * and kubectl KUBECONFIG; docs/settings.md says to give a crontab line an absolute one.
 */
export function configDirectory(env: Readonly<Record<string, string | undefined>>): string {
  if (env.B2BCTL_CONFIG_DIR) return resolve(env.B2BCTL_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, 'b2bctl');
  return join(homedir(), '.config', 'b2bctl');
}

/** The config folder, absolute, when the environment chose it (B2BCTL_CONFIG_DIR, XDG_CONFIG_HOME); else undefined. */
export function configFolderFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  directory: string,
): string | undefined {
  return env.B2BCTL_CONFIG_DIR || (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME))
    ? resolve(directory)
    : undefined;
}

/**
 * `b2bctl WORDS` as a line b2bctl prints for pasting, led by `B2BCTL_CONFIG_DIR=… ` when the environment chose the
 * config folder (configFolderFromEnvironment): the resume line carried it and the login advice beside it did not, so
 * the login pasted from a cron log went to ~/.config/b2bctl and the resume failed again (a user test).
 */
export function b2bctlLine(configFolder: string | undefined, words: string): string {
  return `${configFolder === undefined ? '' : `B2BCTL_CONFIG_DIR=${shellWord(configFolder)} `}b2bctl ${words}`;
}

/**
 * A folder in a home that is not there (`HOME=/nonexistent`, the "no home" of system users): making it would make
 * the home, which root's `config set` did, with .config in it, and root's `stock push` did for its locks (user
 * tests). A home is never b2bctl's to make; the error says what to set instead (ENOENT: "Cannot use the config
 * folder …"), and a lock goes where it goes for a config folder that cannot be written (lock.ts).
 */
export function refuseToMakeTheHome(directory: string): void {
  let home: string;
  try {
    home = resolve(homedir());
  } catch {
    return;
  }
  const folder = resolve(directory);
  if (folder !== home && !folder.startsWith(home + sep)) return;
  if (!existsSync(home))
    throw Object.assign(new Error(`the home folder ${home} is not there`), { code: 'ENOENT', path: home });
}
