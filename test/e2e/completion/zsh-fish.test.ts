/**
 * `b2bctl completion zsh|fish` in the real shells (issue 9): fish computes completions itself (`complete -C`), as at a
 * TAB; zsh's completion system needs a terminal, so the script's function runs with `words`/`CURRENT` set as zsh sets
 * them and `compadd`/`_files` recording what they were given. Each shell's tests skip, saying so, where it is not
 * installed; `.ci/run` installs both.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runBuiltCli } from '../../support/cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { requireTools } from '../../support/external-tools.js';

let folder: string;
let configDir: string;

async function succeeded(run: ReturnType<typeof runBuiltCli>): Promise<string> {
  const result = await run;
  if (result.code !== 0) throw new Error(`setup failed (exit ${result.code}): ${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  folder = temporaryFolder();
  for (const shell of ['zsh', 'fish'])
    writeFileSync(join(folder, `b2bctl.${shell}`), await succeeded(runBuiltCli(['completion', shell])));
  // fish runs `b2bctl` from PATH, as an installed CLI is.
  writeFileSync(join(folder, 'b2bctl'), `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' "$@"\n`);
  chmodSync(join(folder, 'b2bctl'), 0o755);
  writeFileSync(join(folder, 'stock.csv'), 'sku,quantity\n');
  configDir = join(temporaryFolder(), 'config');
  for (const profile of ['lat', 'prod'])
    await succeeded(
      runBuiltCli(['config', 'set', 'baseUrl', `https://${profile}.example.com`, '--profile', profile], {
        env: { B2BCTL_CONFIG_DIR: configDir },
      }),
    );
});
afterAll(removeTemporaryFolders);

const env = () => ({
  PATH: `${folder}:${process.env.PATH ?? ''}`,
  HOME: folder,
  B2BCTL_CONFIG_DIR: configDir,
  XDG_CONFIG_HOME: folder,
});

function runShell(shell: string, args: string[]): string[] {
  const result = spawnSync(shell, args, { cwd: folder, encoding: 'utf8', env: env() });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** What zsh's completion function offers for the words after b2bctl, the last being the word under the cursor. */
function zshTab(...words: string[]): string[] {
  return zshListing(...words).filter((line) => !line.startsWith('display:'));
}

/** zshTab with the lines zsh lists beside the candidates (`display:…`). */
function zshListing(...words: string[]): string[] {
  const quoted = ['b2bctl', ...words].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  return runShell('zsh', [
    '-f',
    '-c',
    [
      `source '${join(folder, 'b2bctl.zsh')}'`,
      // Records the candidates, then what zsh would list beside them (-d), as `display:` lines.
      `compadd() { local -a shown; while [[ $1 != -- ]]; do if [[ $1 == -d ]]; then shown=("\${(@P)2}"); shift; fi; shift; done; shift; print -l -- "files:no" "$@" "\${(@)shown/#/display:}"; }`,
      `_files() { print -l -- "files:yes"; }`,
      `words=(${quoted})`,
      `CURRENT=${words.length + 1}`,
      '_b2bctl',
    ].join('\n'),
  ]);
}

/** What fish offers at a TAB after `line`. */
function fishTab(line: string): string[] {
  return runShell('fish', ['--no-config', '-c', `source '${join(folder, 'b2bctl.fish')}'; complete -C '${line}'`]).map(
    (candidate) => candidate.split('\t')[0] as string,
  );
}

const zsh = requireTools('zsh');
const fish = requireTools('fish');

describe.skipIf(zsh.missing)(`zsh completion${zsh.note}`, () => {
  it('completes commands, --route values and profile names from the installed CLI', () => {
    expect(zshTab('cu')).toEqual(['files:no', 'customer']);
    expect(zshTab('stock', 'push', 'x.csv', '--route', '')).toEqual(['files:no', 'auto', 'batch', 'queue']);
    expect(zshTab('--profile', '')).toEqual(['files:no', 'lat', 'prod']);
  });

  it('lists each command and flag with what it is, a value bare', () => {
    expect(zshListing('st')).toEqual([
      'files:no',
      'stock',
      'display:stock  -- stock and price: nightly files through the 50-item and 200-item routes',
    ]);
    expect(zshListing('stock', 'push', '--ro')).toEqual([
      'files:no',
      '--route',
      expect.stringMatching(/^display:--route {2}-- batch: PUT \/v1\/stock\/batch/),
    ]);
    expect(zshListing('--profile', 'l')).toEqual(['files:no', 'lat', 'display:lat']);
  });

  it('lines the descriptions up in one column, past the longest candidate, as fish does', () => {
    const listed = zshListing('config', 'set', 'answers.token.').filter((line) => line.startsWith('display:'));
    expect(listed).toEqual([
      expect.stringMatching(/^display:answers\.token\.accessToken {2}-- Where the token route answer holds the token/),
      expect.stringMatching(/^display:answers\.token\.expiresIn {4}-- /),
      expect.stringMatching(/^display:answers\.token\.expiresAt {4}-- /),
    ]);
  });

  it('leaves a FILE argument to zsh', () => {
    expect(zshTab('stock', 'push', 'sto')).toEqual(['files:yes']);
  });

  it('installed as _b2bctl in $fpath, completes the first TAB, when compinit autoloads it', () => {
    const functions = join(folder, 'zsh-functions');
    mkdirSync(functions, { recursive: true });
    copyFileSync(join(folder, 'b2bctl.zsh'), join(functions, '_b2bctl'));
    const offered = runShell('zsh', [
      '-f',
      '-c',
      [
        `fpath=('${functions}' $fpath)`,
        'autoload -Uz _b2bctl',
        'compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }',
        "words=(b2bctl 'cu')",
        'CURRENT=2',
        '_b2bctl',
      ].join('\n'),
    ]);
    expect(offered).toEqual(['customer']);
  });
});

describe.skipIf(fish.missing)(`fish completion${fish.note}`, () => {
  it('completes commands, --route values and profile names from the installed CLI', () => {
    expect(fishTab('b2bctl cu')).toEqual(['customer']);
    expect(fishTab('b2bctl stock push x.csv --route ')).toEqual(['auto', 'batch', 'queue']);
    expect(fishTab('b2bctl --profile ')).toEqual(['lat', 'prod']);
  });

  it('shows what each command is beside it, as gh does', () => {
    const lines = runShell('fish', [
      '--no-config',
      '-c',
      `source '${join(folder, 'b2bctl.fish')}'; complete -C 'b2bctl st'`,
    ]);
    expect(lines).toEqual(['stock\tstock and price: nightly files through the 50-item and 200-item routes']);
  });

  it('completes the setting keys of config set', () => {
    expect(fishTab('b2bctl config set paths.tok')).toEqual(['paths.token']);
  });

  it('offers file names for a FILE argument, and only there', () => {
    expect(fishTab('b2bctl stock push sto')).toEqual(['stock.csv']);
  });
});
