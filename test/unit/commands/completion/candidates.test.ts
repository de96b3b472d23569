import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../../src/cli/program.js';
import { completionCandidates } from '../../../../src/commands/completion/candidates.js';

const root = await buildProgram(async () => {}, ['node', 'b2bctl']);
const complete = (...words: string[]) =>
  completionCandidates({ root, words, profileNames: () => ['lat', 'prod', 'default'] });

describe('completionCandidates (from the live command tree)', () => {
  it('offers every top-level command, never the hidden __complete', () => {
    const top = complete('');
    expect(top).toEqual(root.commands.map((command) => command.name()).filter((name) => name !== '__complete'));
    expect(top).toContain('completion');
  });

  it.each([
    [['cu'], ['customer']],
    [['customer', 'cr'], ['create']],
    [
      ['stock', ''],
      ['validate', 'push'],
    ],
    [
      ['stock', 'push', 'f.csv', '--route', ''],
      ['auto', 'batch', 'queue'],
    ],
    [['stock', 'push', 'f.csv', '--route', 'q'], ['queue']],
    [['stock', 'push', 'f.csv', '--route=b'], ['--route=batch']],
    [
      ['sellers', 'list', '-o', ''],
      ['table', 'json', 'ndjson', 'csv'],
    ],
    [['sellers', 'list', '--output', 'nd'], ['ndjson']],
    [
      ['--profile', ''],
      ['lat', 'prod', 'default'],
    ],
    [['customer', 'create', 'c.csv', '--profile', 'p'], ['prod']],
    [
      ['--log-format', ''],
      ['text', 'plain', 'json'],
    ],
    // A positional of fixed words offers them (else the shell would fall back to file names).
    [
      ['completion', ''],
      ['bash', 'zsh', 'fish'],
    ],
    [
      ['webhook', 'dead', ''],
      ['list', 'retry', 'drop'],
    ],
    [['webhook', 'trigger', 'o'], ['orders']],
    [['webhook', 'dead', 'retry', ''], []],
    [
      ['sandbox', '--dialect', ''],
      ['default', 'spring', 'legacy', 'gateway'],
    ],
    [['customer', 'create', ''], []],
  ] as const)('%j → %j', (words, expected) => {
    expect(complete(...words)).toEqual(expected);
  });

  it('after a value option, goes on with the next word as a command word', () => {
    expect(complete('--profile', 'prod', 'sto')).toEqual(['stock']);
  });

  it("offers a command's own and the global options, never the hidden --token", () => {
    const options = complete('stock', 'push', '--');
    expect(options).toEqual(expect.arrayContaining(['--route', '--dry-run', '--profile', '--output', '--help']));
    expect(options).not.toContain('--token');
  });

  it('leaves a file argument to the shell (no candidates)', () => {
    expect(complete('stock', 'push', 'est')).toEqual([]);
  });
});

it('the sandbox --dialect choices are the dialects the sandbox has', async () => {
  const { dialectNames } = await import('../../../../src/sandbox/dialects/index.js');
  const { sandboxDialects } = await import('../../../../src/commands/sandbox/cli.js');
  expect([...sandboxDialects]).toEqual([...dialectNames]);
});
