/**
 * `--help` on a narrow terminal: the option text is wrapped by b2bctl to the terminal's width, so no line runs past
 * the edge (a line the terminal had to wrap itself would break the columns). Read on a rendered screen. The
 * examples are left whole, to be pasted.
 */
import { describe, expect, it } from 'vitest';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';

describe.skipIf(pseudoTerminal.missing)(`help on a 60-column terminal${pseudoTerminal.note}`, () => {
  it.each([
    ['stock', 'push'],
    ['customer', 'create'],
    ['orders', 'poll'],
  ])('%s %s --help: every option wrapped by b2bctl, none by the terminal', async (group, verb) => {
    // The examples after the options are commands to paste whole: a terminal may wrap those.
    const { screen: whole } = await onTerminal([group, verb, '--help'], { columns: 60 });
    const examples = whole.lines.findIndex((line) => /^Examples?:/.test(line));
    const screen = whole.lines.slice(0, examples);
    expect(screen).toContain('Options:');
    expect(whole.wrapped.filter((index) => index < examples)).toEqual([]);
    expect(screen.some((line) => /^ {2}--concurrency <n> {2,}\S/.test(line))).toBe(true);
    // A description continues under itself, aligned, not at the left edge.
    expect(screen.filter((line) => /^ {20,}\S/.test(line)).length).toBeGreaterThan(5);
  });
});
