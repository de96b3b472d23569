import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

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
