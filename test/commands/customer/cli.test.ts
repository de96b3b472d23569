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
    [
      ['customer', 'status', '12345678909', 'inactive'],
      { document: '12345678909', active: false, ...defaultInputFlags, ...defaultSendFlags },
    ],
    [
      ['customer', 'status', '10.314.187/0001-51', 'ativo'],
      { document: '10.314.187/0001-51', active: true, ...defaultInputFlags, ...defaultSendFlags },
    ],
    [
      ['customer', 'status', '12345678909', 'sim'],
      { document: '12345678909', active: true, ...defaultInputFlags, ...defaultSendFlags },
    ],
    [
      ['customer', 'status', '12345678909', 'Bloqueado'],
      { document: '12345678909', active: false, ...defaultInputFlags, ...defaultSendFlags },
    ],
    [
      ['customer', 'status', '12345678909', 'LIBERADO'],
      { document: '12345678909', active: true, ...defaultInputFlags, ...defaultSendFlags },
    ],
    [
      ['customer', 'status', 's.csv', '--skip-invalid'],
      { file: 's.csv', ...defaultInputFlags, ...defaultSendFlags, skipInvalid: true },
    ],
    [['customer', 'status', '-'], { file: '-', ...defaultInputFlags, ...defaultSendFlags }],
    [['customer', 'status', '2024-status'], { file: '2024-status', ...defaultInputFlags, ...defaultSendFlags }],
    [['customer', 'addresses', '12345678909'], { document: '12345678909' }],
    // One customer: --dry-run, --retries and --timeout apply to its one request.
    [
      ['customer', 'status', '12345678909', 'inactive', '--dry-run', '--retries', '0', '--timeout', '5000'],
      {
        document: '12345678909',
        active: false,
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
    [
      ['customer', 'status', '12345678909'],
      'customer status 12345678909: the state is missing; type b2bctl customer status 12345678909 active (or inactive).',
    ],
    [
      ['customer', 'status', '10.314.187/0001-51'],
      'customer status 10.314.187/0001-51: the state is missing; type b2bctl customer status 10.314.187/0001-51 active (or inactive).',
    ],
    [
      ['customer', 'status', '12.ABC.345/01DE-35'],
      'customer status 12.ABC.345/01DE-35: the state is missing; type b2bctl customer status 12.ABC.345/01DE-35 active (or inactive).',
    ],
    [
      ['customer', 'status', '12345678909', 'maybe'],
      'The state must be active or inactive, ativo or inativo, liberado or bloqueado, true or false, sim or não, 1 or 0; not "maybe".',
    ],
    [
      ['customer', 'status', 'clientes.csv', 'inactive'],
      `customer status clientes.csv inactive: a file gives each customer's state in its active column, not on the command line. If clientes.csv has that column, drop "inactive": b2bctl customer status clientes.csv; if not, add it (inactive on each row) and do the same; for a list of documents alone, one a line: sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,inactive/' -e '$a\\' clientes.csv > clientes-inactive.csv && b2bctl customer status clientes-inactive.csv. For one customer, give the document: b2bctl customer status 529.982.247-25 inactive.`,
    ],
    [
      ['customer', 'status', '-', 'inativo'],
      `customer status - inativo: a file gives each customer's state in its active column, not on the command line. If - has that column, drop "inativo": b2bctl customer status -; if not, add it (inativo on each row) and do the same; for a list of documents alone, one a line: ... | sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,inativo/' -e '$a\\' | b2bctl customer status -. For one customer, give the document: b2bctl customer status 529.982.247-25 inativo.`,
    ],
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
      ['customer', 'status', '12345678909', 'inactive', '--report', 'r.csv', '--min-records', '5'],
      '--report, --min-records apply to a FILE of customers; one customer on the command line is one request, with no file to read, pace or report. Remove them, or give a file: b2bctl customer status states.csv.',
    ],
    [
      ['customer', 'status', '12345678909', 'inactive', '--skip-invalid'],
      '--skip-invalid applies to a FILE of customers;',
    ],
    [['customer', 'status', '12345678909', 'inactive', '--concurrency', '4'], '--concurrency applies to a FILE'],
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
