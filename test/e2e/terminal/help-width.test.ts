/**
 * `--help` on a narrow terminal: the option text is wrapped by b2bctl to the terminal's width, so no line runs past
 * the edge (a line the terminal had to wrap itself would break the columns). Read on a rendered screen. The
 * examples are left whole, to be pasted.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';

/** What `b2bctl ARGS` writes to a terminal `columns` wide (under `script`, a pseudo-terminal). */
function onTerminal(args: readonly string[], columns: number): Promise<string> {
  const command = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', `stty cols ${columns} rows 50; ${command}`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(output.replaceAll('\r\n', '\n'))));
}

const pseudoTerminal = requireTools('script');

describe.skipIf(pseudoTerminal.missing)(`help on a 60-column terminal${pseudoTerminal.note}`, () => {
  it.each([
    ['stock', 'push'],
    ['customer', 'create'],
    ['orders', 'poll'],
  ])('%s %s --help: every option wrapped by b2bctl, none by the terminal', async (group, verb) => {
    // The examples after the options are commands to paste whole: a terminal may wrap those.
    const output = (await onTerminal([group, verb, '--help'], 60)).split(/\nExamples?:/)[0] as string;
    expect(output).toContain('Options:');
    expect(await wrappedLineCount(output, 60)).toBe(0);
    const screen = await renderedScreen(output, 60);
    expect(screen.some((line) => /^ {2}--concurrency <n> {2,}\S/.test(line))).toBe(true);
    // A description continues under itself, aligned, not at the left edge.
    expect(screen.filter((line) => /^ {20,}\S/.test(line)).length).toBeGreaterThan(5);
  });
});
