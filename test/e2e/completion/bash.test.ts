/**
 * `b2bctl completion bash` in a real bash (issue 9): the generated script is sourced, COMP_WORDS/COMP_CWORD are set
 * as readline sets them, and COMPREPLY holds what the built CLI's command tree and config folder say.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { chmodSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runBuiltCli, sleep } from '../../support/cli.js';
import { renderedScreen } from '../../support/rendered-screen.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { requireTools } from '../../support/external-tools.js';

let script: string;
let configDir: string;

/** Setup fails loudly: a missing script or profile would make every case below fail for the wrong reason. */
async function succeeded(run: ReturnType<typeof runBuiltCli>): Promise<string> {
  const result = await run;
  if (result.code !== 0) throw new Error(`setup failed (exit ${result.code}): ${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  script = join(temporaryFolder(), 'b2bctl.bash');
  writeFileSync(script, await succeeded(runBuiltCli(['completion', 'bash'])));
  configDir = join(temporaryFolder(), 'config');
  for (const profile of ['lat', 'prod'])
    await succeeded(
      runBuiltCli(['config', 'set', 'baseUrl', `https://${profile}.example.com`, '--profile', profile], {
        env: { B2BCTL_CONFIG_DIR: configDir },
      }),
    );
});
afterAll(removeTemporaryFolders);

/** COMPREPLY after a TAB on the last word of `words` (the words after b2bctl), computed by bash itself. */
function tab(...words: string[]): string[] {
  const quoted = ['b2bctl', ...words].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const program = [
    `b2bctl() { '${process.execPath}' '${cliPath}' "$@"; }`,
    `source '${script}'`,
    `COMP_WORDS=(${quoted})`,
    `COMP_CWORD=${words.length}`,
    '_b2bctl_complete',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
    // The registration itself, as `complete -p` shows it: -o default gives file names when nothing matches.
    'complete -p b2bctl >&2',
  ].join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', B2BCTL_CONFIG_DIR: configDir },
  });
  expect(result.status).toBe(0);
  expect(result.stderr).toBe('complete -o default -F _b2bctl_complete b2bctl\n');
  return result.stdout.split('\n').filter((line) => line !== '');
}

/**
 * Lines typed at an interactive bash on a pseudo-terminal, each ending in a TAB then Enter, and the screen after:
 * readline itself splits the words (at `=` too) and puts the candidate in the line. `b2bctl` there completes through
 * the built CLI and, run, only prints `ran:` and its words.
 */
async function typedAtPrompt(lines: readonly string[]): Promise<string[]> {
  const folder = temporaryFolder();
  const wrapper = join(folder, 'b2bctl');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nif [ "$1" = __complete ]; then exec '${process.execPath}' '${cliPath}' "$@"; fi\necho "ran: $*"\n`,
  );
  chmodSync(wrapper, 0o755);
  const child = spawn('script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], {
    cwd: folder,
    env: {
      PATH: `${folder}:${process.env.PATH ?? ''}`,
      HOME: folder,
      TERM: 'xterm',
      PS1: '$ ',
      B2BCTL_CONFIG_DIR: configDir,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const ran = () => output.split('ran:').length - 1;
  child.stdin.write(`source '${script}'\n`);
  for (const [index, line] of lines.entries()) {
    child.stdin.write(`${line}\t`);
    // Readline reads the Enter only after the TAB's completion has put its candidate in the line.
    child.stdin.write('\r');
    while (ran() <= index) await sleep(10);
  }
  child.stdin.write('exit\n');
  await new Promise((resolve) => child.on('close', resolve));
  return (await renderedScreen(output, 120)).filter((line) => line.startsWith('ran:'));
}

const bash = requireTools('bash');
const terminal = requireTools('bash', 'script');

describe.skipIf(bash.missing)(`bash completion${bash.note}`, () => {
  it('completes commands and subcommands from the tree', () => {
    expect(tab('cu')).toEqual(['customer']);
    expect(tab('customer', '')).toEqual(['validate', 'create', 'update', 'status', 'addresses']);
  });

  it('completes --route and --output values', () => {
    expect(tab('stock', 'push', 'stock.csv', '--route', '')).toEqual(['auto', 'batch', 'queue']);
    expect(tab('sellers', 'list', '-o', 'j')).toEqual(['json']);
  });

  it('completes profile names read from the config folder at completion time', () => {
    expect(tab('--profile', '')).toEqual(['lat', 'prod']);
    expect(tab('stock', 'push', 'x.csv', '--profile', 'l')).toEqual(['lat']);
  });

  it('completes the setting keys of config set', () => {
    expect(tab('config', 'set', 'paths.tok')).toEqual(['paths.token']);
    expect(tab('config', 'get', 'answers.stockBatch.res')).toEqual(['answers.stockBatch.results']);
  });

  it('completes options, and leaves file arguments to bash', () => {
    expect(tab('stock', 'push', '--dry')).toEqual(['--dry-run']);
    expect(tab('stock', 'push', 'sto')).toEqual([]);
  });
});

describe.skipIf(terminal.missing)(`bash completion at a real prompt${terminal.note}`, () => {
  it('completes the value of --flag=, which readline splits at the =', async () => {
    expect(
      await typedAtPrompt([
        'b2bctl sellers list --output=js',
        'b2bctl stock push x.csv --route=q',
        'b2bctl --profile=l',
        'b2bctl cu',
      ]),
    ).toEqual([
      'ran: sellers list --output=json',
      'ran: stock push x.csv --route=queue',
      'ran: --profile=lat',
      'ran: customer',
    ]);
  });
});
