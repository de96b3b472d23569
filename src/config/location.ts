import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where profiles live: B2BCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/b2bctl, else ~/.config/b2bctl. */
export function configDirectory(env: Readonly<Record<string, string | undefined>>): string {
  if (env.B2BCTL_CONFIG_DIR) return env.B2BCTL_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'b2bctl');
  return join(homedir(), '.config', 'b2bctl');
}
