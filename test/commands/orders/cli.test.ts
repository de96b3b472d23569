import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../../../src/command-kit/command-group.js';
import { register } from '../../../src/commands/orders/cli.js';

/** Parses argv with the orders group alone and returns the options handed to the verb (never run). */
async function parse(argv: string[]): Promise<unknown> {
  let handed: unknown;
  const program = new Command('b2bctl').exitOverride();
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const dispatch: Dispatch = async (_command, _load, options) => {
    handed = options;
  };
  register(program, dispatch);
  program.commands.forEach((command) => command.exitOverride());
  for (const group of program.commands) group.commands.forEach((command) => command.exitOverride());
  await program.parseAsync(['node', 'b2bctl', ...argv]);
  return handed;
}

describe('orders cli', () => {
  it('types the poll flags, with their defaults', async () => {
    expect(await parse(['orders', 'poll', '--since', '2h'])).toEqual({
      since: '2h',
      until: undefined,
      statuses: [],
      detail: false,
      outDir: undefined,
      cursor: undefined,
      watch: false,
      intervalSeconds: 60,
      concurrency: 4,
      rate: undefined,
    });
    expect(
      await parse([
        'orders',
        'poll',
        '--status',
        'SHIPPED',
        '--status',
        'CANCELED',
        '--detail',
        '--out-dir',
        'in',
        '--watch',
        '--interval',
        '5',
        '--concurrency',
        '8',
      ]),
    ).toMatchObject({
      statuses: ['SHIPPED', 'CANCELED'],
      detail: true,
      outDir: 'in',
      watch: true,
      intervalSeconds: 5,
      concurrency: 8,
    });
  });

  it('refuses --interval without --watch and a concurrency of 0', async () => {
    await expect(parse(['orders', 'poll', '--interval', '5'])).rejects.toThrow('--interval needs --watch');
    await expect(parse(['orders', 'poll', '--concurrency', '0'])).rejects.toThrow(/at least 1/);
  });

  it('hands orders get its id', async () => {
    expect(await parse(['orders', 'get', '42'])).toEqual({ id: '42' });
  });
});
