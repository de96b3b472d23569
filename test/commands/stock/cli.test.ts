import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/stock/cli.js';
import { defaultInputFlags, defaultSendFlags, parseWithGroup } from '../../support/parse-group.js';

describe('stock cli', () => {
  it.each([
    [['stock', 'validate', 'stock.csv'], { file: 'stock.csv', ...defaultInputFlags }],
    [
      ['stock', 'validate', '-', '--delimiter', 'semicolon', '--decimal', ',', '--encoding', 'cp850', '--strict'],
      { file: '-', ...defaultInputFlags, delimiter: ';', decimal: ',', encoding: 'cp850', strict: true },
    ],
    [
      ['stock', 'push', 'stock.csv'],
      {
        file: 'stock.csv',
        route: 'auto',
        batchSize: undefined,
        schema: undefined,
        ...defaultInputFlags,
        ...defaultSendFlags,
      },
    ],
    [
      [
        'stock',
        'push',
        'stock.csv',
        '--route',
        'queue',
        '--batch-size',
        '100',
        '--schema',
        'names.json',
        '--map',
        'map.json',
        '--concurrency',
        '2',
        '--rate',
        '2.5',
        '--retries',
        '0',
        '--timeout',
        '5000',
        '--report',
        'r.csv',
        '--errors',
        'e.csv',
        '--resume',
        'old.csv',
        '--keep-reports',
        '3',
        '--skip-invalid',
        '--dry-run',
      ],
      {
        file: 'stock.csv',
        route: 'queue',
        batchSize: 100,
        schema: 'names.json',
        ...defaultInputFlags,
        map: 'map.json',
        concurrency: 2,
        rate: 2.5,
        retries: 0,
        timeoutMs: 5000,
        report: 'r.csv',
        errors: 'e.csv',
        resume: 'old.csv',
        keepReports: 3,
        skipInvalid: true,
        dryRun: true,
      },
    ],
  ])('%j hands %j', async (argv, expected) => {
    expect(await parseWithGroup(register, argv)).toEqual(expected);
  });

  it.each([
    [['stock', 'push', 'x.csv', '--route', 'nope'], 'Allowed choices are auto, batch, queue.'],
    [['stock', 'push', 'x.csv', '--batch-size', '0'], 'expected a whole number of at least 1.'],
    [['stock', 'push', 'x.csv', '--concurrency', '0'], 'expected a whole number of at least 1.'],
    [['stock', 'push', 'x.csv', '--rate', '0'], 'expected a number above 0'],
    [['stock', 'validate', 'x.csv', '--delimiter', 'ab'], 'expected one character, or tab, comma or semicolon.'],
    [['stock', 'validate', 'x.csv', '--decimal', ';'], 'Allowed choices are ., ,.'],
    [['stock', 'push'], "missing required argument 'file'"],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });
});
