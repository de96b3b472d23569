import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/customer/cli.js';
import { customerFieldPaths } from '../../../src/domain/customer-fields.js';
import { defaultInputFlags, defaultSendFlags, helpWithGroup, parseWithGroup } from '../../support/parse-group.js';

describe('customer cli', () => {
  it.each([
    [['customer', 'validate', 'c.csv'], { file: 'c.csv', mode: 'create', ...defaultInputFlags }],
    [
      ['customer', 'validate', 'c.csv', '--update', '--map', 'm.json'],
      { file: 'c.csv', mode: 'update', ...defaultInputFlags, map: 'm.json' },
    ],
    [['customer', 'create', 'c.csv'], { file: 'c.csv', upsert: false, ...defaultInputFlags, ...defaultSendFlags }],
    [
      ['customer', 'create', 'c.csv', '--upsert', '--dry-run', '--delimiter', 'tab'],
      { file: 'c.csv', upsert: true, ...defaultInputFlags, delimiter: '\t', ...defaultSendFlags, dryRun: true },
    ],
    [['customer', 'update', 'u.csv'], { file: 'u.csv', ...defaultInputFlags, ...defaultSendFlags }],
    [
      ['customer', 'update', '--document', '12345678909', '--set', 'active=false', '--set', 'name=Ana'],
      {
        document: '12345678909',
        set: ['active=false', 'name=Ana'],
        ...defaultInputFlags,
        ...defaultSendFlags,
      },
    ],
    // What TARGET and STATE mean is the verb's to decide (test/unit/commands/customer/status-target.test.ts).
    [
      ['customer', 'status', '12345678909', 'inactive'],
      { target: '12345678909', state: 'inactive', fileOnlyFlags: [], ...defaultInputFlags, ...defaultSendFlags },
    ],
    [
      ['customer', 'status', 's.csv', '--skip-invalid'],
      {
        target: 's.csv',
        fileOnlyFlags: ['--skip-invalid'],
        ...defaultInputFlags,
        ...defaultSendFlags,
        skipInvalid: true,
      },
    ],
    [['customer', 'status', '-'], { target: '-', fileOnlyFlags: [], ...defaultInputFlags, ...defaultSendFlags }],
    [['customer', 'addresses', '12345678909'], { document: '12345678909' }],
    // One customer: --dry-run, --retries and --timeout apply to its one request.
    [
      ['customer', 'status', '12345678909', 'inactive', '--dry-run', '--retries', '0', '--timeout', '5000'],
      {
        target: '12345678909',
        state: 'inactive',
        fileOnlyFlags: [],
        ...defaultInputFlags,
        ...defaultSendFlags,
        dryRun: true,
        retries: 0,
        timeoutMs: 5000,
      },
    ],
    [
      ['customer', 'update', '--document', '12345678909', '--set', 'active=false', '--dry-run'],
      { document: '12345678909', set: ['active=false'], ...defaultInputFlags, ...defaultSendFlags, dryRun: true },
    ],
  ])('%j hands %j', async (argv, expected) => {
    expect(await parseWithGroup(register, argv)).toEqual(expected);
  });

  it.each([
    [['customer', 'create'], "missing required argument 'file'"],
    [['customer', 'status'], "missing required argument 'doc-or-file'"],
    [['customer', 'addresses'], "missing required argument 'doc'"],
    [['customer', 'create', 'c.csv', '--retries', '-1'], 'expected a whole number (0 or more).'],
    [['customer', 'update', 'u.csv', '--keep-reports', '0'], 'expected a whole number of at least 1.'],
    [
      ['customer', 'update', 'u.csv', '--document', '12345678909'],
      'Give either FILE, or --document with --set, not both.',
    ],
    [['customer', 'update', 'u.csv', '--set', 'active=false'], 'Give either FILE, or --document with --set, not both.'],
    [['customer', 'update'], 'Give a FILE of updates, or --document DOC with at least one --set FIELD=VALUE.'],
    [
      ['customer', 'update', '--document', '12345678909'],
      'Give a FILE of updates, or --document DOC with at least one --set FIELD=VALUE.',
    ],
    [
      ['customer', 'update', '--set', 'active=false'],
      'Give a FILE of updates, or --document DOC with at least one --set FIELD=VALUE.',
    ],
    // The flags of a FILE's run are refused with one customer on the line, not ignored.
    [
      [
        'customer',
        'update',
        '--document',
        '12345678909',
        '--set',
        'active=false',
        '--map',
        'm.json',
        '--resume',
        'r.csv',
      ],
      '--map, --resume apply to a FILE of customers; one customer on the command line is one request, with no file to read, pace or report. Remove them, or give a file: b2bctl customer update changes.csv.',
    ],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });

  it("customer status hands the verb the FILE's flags given, which it refuses for one customer", async () => {
    const argv = ['customer', 'status', '12345678909', 'inactive', '--report', 'r.csv', '--min-records', '5'];
    expect(await parseWithGroup(register, argv)).toMatchObject({ fileOnlyFlags: ['--report', '--min-records'] });
  });

  it("customer update --help lists every field --set takes: the update route's fields but the document", async () => {
    const help = await helpWithGroup(register, ['customer', 'update', '--help']);
    // The fields block runs from its heading to the next blank line (the Examples section follows it).
    const fieldsPart = help.slice(help.indexOf('Fields --set takes')).split('\n\n')[0]!;
    const listed = fieldsPart
      .split('\n')
      .slice(1)
      .flatMap((line) => line.replace(/^ {2}[^:]+: /, '').split(','))
      .map((name) => name.trim())
      .filter(Boolean);
    expect(listed.toSorted()).toEqual(customerFieldPaths.update.filter((path) => path !== 'document').toSorted());
    expect(fieldsPart).toContain('  true/false, sim/não, 1/0: paysIcms,');
  });
});
