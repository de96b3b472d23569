/**
 * `--help` on a narrow terminal: the option text is wrapped by b2bctl to the terminal's width, so no line runs past
 * the edge (a line the terminal had to wrap itself would break the columns); below a readable column width each
 * description goes under its flag. Read on a rendered screen. The examples are left whole, to be pasted.
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

/** `stock push --help` before its examples (commands to paste whole, which a terminal may wrap). */
async function helpOn(columns: number): Promise<{ lines: string[]; wrapped: number[] }> {
  const { screen } = await onTerminal(['stock', 'push', '--help'], { columns });
  const examples = screen.lines.findIndex((line) => /^Examples?:/.test(line));
  return { lines: screen.lines.slice(0, examples), wrapped: screen.wrapped.filter((index) => index < examples) };
}

const wordsOf = (lines: readonly string[]): string[] => lines.join(' ').split(/\s+/).filter(Boolean);

describe.skipIf(pseudoTerminal.missing)(`help on a 40- and an 80-column terminal${pseudoTerminal.note}`, () => {
  it('at 40 columns each description goes under its flag, wrapped at word boundaries, no line past the edge', async () => {
    const [narrow, wide] = await Promise.all([helpOn(40), helpOn(160)]);
    expect(narrow.wrapped).toEqual([]);
    expect(narrow.lines.every((line) => line.length <= 40)).toBe(true);
    // No word cut: the narrow screen holds the wide one's words, whole and in order.
    expect(wordsOf(narrow.lines)).toEqual(wordsOf(wide.lines));
    const route = narrow.lines.indexOf('  --route <route>');
    expect(narrow.lines.slice(route + 1, route + 3)).toEqual([
      '      batch: PUT /v1/stock/batch (50',
      '      items, per-item results); queue:',
    ]);
  });

  it('at 80 columns the descriptions stay in a column beside the flags', async () => {
    const { lines, wrapped } = await helpOn(80);
    expect(wrapped).toEqual([]);
    expect(lines).toContain('  --route <route>         batch: PUT /v1/stock/batch (50 items, per-item');
    expect(lines.some((line) => /^ {26}results\); queue:/.test(line))).toBe(true);
  });
});
