import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { b2bctlLine, configDirectory, configFolderFromEnvironment } from '../../../src/config/location.js';

describe('the config folder', () => {
  it('is B2BCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/b2bctl, else ~/.config/b2bctl', () => {
    expect(configDirectory({ B2BCTL_CONFIG_DIR: '/srv/erp/b2bctl', XDG_CONFIG_HOME: '/x' })).toBe('/srv/erp/b2bctl');
    expect(configDirectory({ XDG_CONFIG_HOME: '/home/erp/.cfg' })).toBe('/home/erp/.cfg/b2bctl');
    expect(configDirectory({})).toBe(join(homedir(), '.config', 'b2bctl'));
  });

  // The XDG spec: a relative path there is invalid and is to be ignored. Taken as it was, each folder a job was
  // started from had profiles of its own (a user test).
  it('ignores a relative XDG_CONFIG_HOME', () => {
    expect(configDirectory({ XDG_CONFIG_HOME: 'relative/xdg' })).toBe(join(homedir(), '.config', 'b2bctl'));
  });

  it('takes a relative B2BCTL_CONFIG_DIR against the current folder, and names it absolute', () => {
    expect(configDirectory({ B2BCTL_CONFIG_DIR: 'relcfg' })).toBe(resolve('relcfg'));
    expect(configDirectory({ B2BCTL_CONFIG_DIR: 'relcfg' }).startsWith('/')).toBe(true);
  });
});

/** The config folder of `env` when the environment chose it. */
function chosen(env: Record<string, string>): string | undefined {
  return configFolderFromEnvironment(env, configDirectory(env));
}

describe('a command line b2bctl prints for pasting', () => {
  it('names the config folder the environment chose, quoted for the shell, and none otherwise', () => {
    expect(b2bctlLine(chosen({ B2BCTL_CONFIG_DIR: '/srv/erp/b2bctl' }), 'login --profile default')).toBe(
      'B2BCTL_CONFIG_DIR=/srv/erp/b2bctl b2bctl login --profile default',
    );
    expect(b2bctlLine(chosen({ XDG_CONFIG_HOME: "/srv/o'brien" }), 'login')).toBe(
      "B2BCTL_CONFIG_DIR='/srv/o'\\''brien/b2bctl' b2bctl login",
    );
    expect(b2bctlLine(chosen({ XDG_CONFIG_HOME: 'relative/xdg' }), 'login')).toBe('b2bctl login');
    expect(b2bctlLine(chosen({}), 'login')).toBe('b2bctl login');
  });
});
