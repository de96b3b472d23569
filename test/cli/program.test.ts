import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, endParsesWithErrors, globalsOf, parseEndExitCode } from '../../src/cli/program.js';
import { helpOfCommandPath } from '../../src/cli/run-program.js';

/** Parses argv with the whole program (no verb may run) and returns the exit code main.ts would give and the help printed. */
async function parseEnd(argv: string[]): Promise<{ code: number | string; out: string; err: string }> {
  const full = ['node', 'b2bctl', ...argv];
  let out = '';
  let err = '';
  const program = await buildProgram(async () => {
    throw new Error('no verb should run');
  }, full);
  endParsesWithErrors(program, { out: (text) => (out += text), err: (text) => (err += text) });
  try {
    await program.parseAsync(full);
    return { code: 'parse did not end', out, err };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { code: parseEndExitCode(error), out, err };
  }
}

describe('help and version end the parse with 0; a missing command with 2', () => {
  it.each([
    [['--help'], 'Usage: b2bctl [options] [command]'],
    [['help'], 'Usage: b2bctl [options] [command]'],
    [['help', '--help'], 'Usage: b2bctl [options] [command]'],
    [['help', 'customer'], 'Usage: b2bctl customer [options] [command]'],
    [['customer', 'status', '--help'], 'Usage: b2bctl customer status [options] <doc-or-file> [state]'],
    [['config', 'set', '--help'], 'Usage: b2bctl config set [options] <key> <value>'],
  ])('%j prints help on stdout and exits 0', async (argv, usage) => {
    const ended = await parseEnd(argv);
    expect(ended.code).toBe(0);
    expect(ended.out.split('\n')[0]).toBe(usage);
    expect(ended.err).toBe('');
  });

  it('--version exits 0', async () => {
    expect((await parseEnd(['--version'])).code).toBe(0);
  });

  it.each([[['customer']], [['nosuch']], [['sellers', 'list', '--limit', 'x']]])(
    '%j is a usage error (2)',
    async (argv) => {
      expect((await parseEnd(argv)).code).toBe(2);
    },
  );
});

describe('b2bctl help A B', () => {
  it.each([
    [['help', 'stock', 'push'], 'Usage: b2bctl stock push [options] <file>'],
    [['help', 'orders', 'update'], 'Usage: b2bctl orders update [options] <file>'],
    [['help', 'stock'], 'Usage: b2bctl stock [options] [command]'],
  ])('%j shows the help of the verb, not of its group', async (argv, usage) => {
    const ended = await parseEnd([...helpOfCommandPath(['node', 'b2bctl', ...argv])].slice(2));
    expect(ended.code).toBe(0);
    expect(ended.out.split('\n')[0]).toBe(usage);
  });

  it('leaves every other command line as it is', () => {
    for (const argv of [['help'], ['stock', 'push', 'help'], ['help', 'stock', '--help']])
      expect(helpOfCommandPath(['node', 'b2bctl', ...argv])).toEqual(['node', 'b2bctl', ...argv]);
  });
});

describe('colour', () => {
  it.each([
    [{}, true],
    [{ NO_COLOR: '1' }, false],
    [{ TERM: 'dumb' }, false],
    [{ TERM: 'xterm-256color' }, true],
  ])('with %j in the environment: %s', async (env, color) => {
    const program = await buildProgram(async () => {}, ['node', 'b2bctl', 'sellers', 'list']);
    expect(globalsOf(program, env).color).toBe(color);
  });
});
