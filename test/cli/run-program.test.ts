/**
 * runProgram (src/cli/run-program.ts), the one place a command line's exit code and its error lines are decided,
 * for the binary and for runCommandLine alike: --log-format is read once, by commander, and what is written before
 * a command's context exists (usage errors, a flag combination a group refuses) follows it as the verb's lines do.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ContextFactory, runProgram } from '../../src/cli/run-program.js';
import { type Context, createContext, type GlobalOptions, type IOStreams } from '../../src/context.js';
import { removeTemporaryFolders } from '../support/temporary.js';
import { testContext } from '../support/test-context.js';
import { ndjsonOf } from '../support/ndjson.js';

afterAll(() => removeTemporaryFolders());

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  /** The global options each context was asked for with, in order. */
  contexts: GlobalOptions[];
}

/** `b2bctl WORDS` through runProgram on a test context's memory streams (none a terminal), with a real context unless `contextFor`. */
async function run(
  words: string[],
  env: Record<string, string> = {},
  contextFor?: (io: IOStreams) => ContextFactory,
): Promise<Ran> {
  const test = testContext({ env });
  const { io } = test.context;
  const real: ContextFactory = (globals) => createContext({ io, env: test.env, globals });
  const factory = contextFor?.(io) ?? real;
  const contexts: GlobalOptions[] = [];
  const code = await runProgram(['node', 'b2bctl', ...words], io, test.env, (globals): Context | Promise<Context> => {
    contexts.push(globals);
    return factory(globals);
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: test.stdout(), stderr: test.stderr(), contexts };
}

const jsonLines = (text: string): { level: string; message: string }[] =>
  ndjsonOf<{ level: string; message: string }>(text);

/** A context factory that fails as an unexpected bug would. */
const failing = (): ContextFactory => () => {
  throw new Error('boom');
};

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z /;

describe('a usage error is written as the log lines the command would have written', () => {
  it('--log-format json: one JSON object per line, level error, and no command started', async () => {
    const ran = await run(['--log-format', 'json', 'sellers', 'list', '--limit', 'x']);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    const lines = jsonLines(ran.stderr);
    expect(lines.map((line) => line.level)).toEqual(lines.map(() => 'error'));
    expect(lines[0]?.message).toContain('--limit');
    expect(ran.contexts).toEqual([]);
  });

  it('--log-format after the command word counts as well (commander reads the global options anywhere)', async () => {
    const ran = await run(['sellers', 'list', '--limit', 'x', '--log-format', 'json']);
    expect(ran.code).toBe(2);
    expect(jsonLines(ran.stderr)[0]?.level).toBe('error');
  });

  it('B2BCTL_LOG_FORMAT=json does the same; the flag wins over it', async () => {
    expect(jsonLines((await run(['nosuch'], { B2BCTL_LOG_FORMAT: 'json' })).stderr)[0]?.level).toBe('error');
    const plain = await run(['--log-format', 'plain', 'nosuch'], { B2BCTL_LOG_FORMAT: 'json' });
    expect(plain.code).toBe(2);
    expect(plain.stderr.split('\n')[0]).toMatch(/^error: /);
  });

  it('text by default: off a terminal the error line and the two usage lines after it start with the time', async () => {
    const ran = await run(['nosuch']);
    expect(ran.code).toBe(2);
    const [error, ...usage] = ran.stderr.trimEnd().split('\n');
    expect(error).toMatch(isoTime);
    expect(usage.map((line) => line.replace(isoTime, ''))).toEqual([
      'Usage: b2bctl [options] [command]',
      'Run "b2bctl --help" for details.',
    ]);
    for (const line of usage) expect(line).toMatch(isoTime);
  });

  it('a bad B2BCTL_LOG_FORMAT is the error reported, as a text line, before any context', async () => {
    const ran = await run(['sellers', 'list'], { B2BCTL_LOG_FORMAT: 'xml' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(isoTime);
    expect(ran.stderr).toContain('B2BCTL_LOG_FORMAT must be one of text, plain, json, not "xml".');
    expect(ran.contexts).toEqual([]);
  });
});

describe('a flag combination a group refuses, before any context', () => {
  it('is one error line in the chosen format, exit 2', async () => {
    const ran = await run(['--log-format', 'json', 'orders', 'poll', '--interval', '5']);
    expect(ran.code).toBe(2);
    expect(jsonLines(ran.stderr)).toEqual([{ time: expect.any(String), level: 'error', message: expect.any(String) }]);
    expect(ran.contexts).toEqual([]);
  });
});

describe('the verb', () => {
  it('gets the global options commander parsed, with text as the default log format', async () => {
    const ran = await run(['-o', 'json', 'sellers', 'list', '--profile', 'nope']);
    expect(ran.contexts).toEqual([expect.objectContaining({ output: 'json', profile: 'nope', logFormat: 'text' })]);
  });

  it("its error is written by the command's own log, in the chosen format", async () => {
    const ran = await run(['sellers', 'list', '--profile', 'nope', '--log-format', 'json']);
    expect(ran.code).toBe(2);
    expect(jsonLines(ran.stderr)).toEqual([
      expect.objectContaining({ level: 'error', message: expect.stringContaining('Unknown profile "nope"') }),
    ]);
  });

  it('an unexpected error is exit 1 with a hint, and its stack with --verbose (read by commander)', async () => {
    const quiet = await run(['--log-format', 'plain', 'sellers', 'list'], {}, failing);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toBe('error: boom (run with --verbose for details)\n');
    const verbose = await run(['sellers', 'list', '--log-format', 'plain', '--verbose'], {}, failing);
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/^error: boom\nError: boom\n\s+at /);
  });
});

describe('help and version end with 0 on stdout', () => {
  it.each([[['help', 'customer']], [['customer', '--help']], [['--version', 'sellers']]])('%j', async (words) => {
    const ran = await run(words);
    expect(ran.code).toBe(0);
    expect(ran.stdout).not.toBe('');
    expect(ran.stderr).toBe('');
  });
});

describe('help of a command that does not exist', () => {
  it.each([
    [['help', 'nosuch'], "error: unknown command 'nosuch'", 'Usage: b2bctl [options] [command]'],
    [['nosuch', '--help'], "error: unknown command 'nosuch'", 'Usage: b2bctl [options] [command]'],
    [['help', 'stok'], "error: unknown command 'stok' (did you mean stock?)", 'Usage: b2bctl [options] [command]'],
    [['help', 'stock', 'nosuch'], "error: unknown command 'nosuch'", 'Usage: b2bctl stock [options] [command]'],
    [['stock', 'nosuch', '--help'], "error: unknown command 'nosuch'", 'Usage: b2bctl stock [options] [command]'],
    [['--profile', 'x', 'help', 'nosuch'], "error: unknown command 'nosuch'", 'Usage: b2bctl [options] [command]'],
    [['help', 'orders', 'poll', 'nosuch'], "error: unknown command 'nosuch'", 'Usage: b2bctl orders poll [options]'],
  ])('%j is a usage error naming it (2), not the whole help of its nearest command', async (words, error, usage) => {
    // The whole top-level help was printed, exit 2 (or 0), without a word of the unknown command (a user test).
    const ran = await run(words);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(
      ran.stderr
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(isoTime, '')),
    ).toEqual([error, usage, expect.stringMatching(/^Run "b2bctl.*--help" for details\.$/)]);
  });
});

describe('help of a command that does not exist, in the log format asked', () => {
  it.each([[['--log-format', 'json', 'help', 'nosuch']], [['help', 'nosuch', '--log-format=json']]])(
    '%j: JSON lines, as every other usage error',
    async (words) => {
      // A user test: the flag was not read yet when the unknown topic was refused, and the lines came as text.
      const ran = await run(words);
      expect(ran.code).toBe(2);
      expect(jsonLines(ran.stderr)[0]).toMatchObject({ level: 'error', message: "unknown command 'nosuch'" });
    },
  );

  it('a verb followed by a word is still its help with --help (the word may be its argument)', async () => {
    const ran = await run(['stock', 'push', 'estoque.csv', '--help']);
    expect(ran.code).toBe(0);
    expect(ran.stdout.split('\n')[0]).toBe('Usage: b2bctl stock push [options] <file>');
  });
});

describe('the exit code is told as soon as it is decided', () => {
  it('before the context has closed (its connections may keep the process a while): a second Ctrl-C keeps it', async () => {
    const test = testContext({ env: { B2BCTL_BASE_URL: 'https://store.example', B2BCTL_TOKEN: 'token-0123456789' } });
    const { io } = test.context;
    const told: { code: number; closed: boolean }[] = [];
    let closed = false;
    let closeNow: (() => void) | undefined;
    const code = runProgram(
      ['node', 'b2bctl', 'config', 'get', 'nothing.such'],
      io,
      test.env,
      (globals) => {
        const context = createContext({ io, env: test.env, globals });
        const close = context.close.bind(context);
        context.close = async () => {
          await new Promise<void>((resolve) => (closeNow = resolve));
          await close();
          closed = true;
        };
        return context;
      },
      (decided) => told.push({ code: decided, closed }),
    );
    // Told the code (2) while the context is still closing.
    while (told.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([{ code: 2, closed: false }]);
    closeNow?.();
    expect(await code).toBe(2);
  });
});
