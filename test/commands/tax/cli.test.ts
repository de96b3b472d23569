import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/tax/cli.js';
import { parseWithGroup } from '../../support/parse-group.js';

const sale = ['tax', 'quote', '--rules', 't.csv', '--from', 'sp', '--to', 'RJ', '--buyer', 'taxpayer'];

describe('tax cli', () => {
  it('hands the sale, the items as checked and the reading flags', async () => {
    expect(
      await parseWithGroup(register, [
        ...sale,
        '--item',
        '3926.90.90,10,45.90',
        '--item',
        '84713012,2,3500,100,25.5',
        // No discount after a whole price: one reading only.
        '--item',
        '84713012,1,3500,0,25',
        '--delimiter',
        ';',
      ]),
    ).toEqual({
      rules: 't.csv',
      from: 'SP',
      to: 'RJ',
      buyer: 'taxpayer',
      items: [
        { ncm: '39269090', quantity: 10, unitPrice: '45.90', discount: '0', freight: '0' },
        { ncm: '84713012', quantity: 2, unitPrice: '3500', discount: '100', freight: '25.5' },
        { ncm: '84713012', quantity: 1, unitPrice: '3500', discount: '0', freight: '25' },
      ],
      itemsFile: undefined,
      input: expect.objectContaining({ delimiter: ';' }),
    });
  });

  it.each([
    [[...sale], 'give the cart: --item NCM,QUANTITY,UNIT_PRICE (repeatable) or --items FILE.'],
    [[...sale, '--item', '8471,1,10'], `ncm "8471" must be the item's 8-digit NCM`],
    [[...sale, '--item', '84713012,0,10'], 'quantity "0" must be a number above 0'],
    [[...sale, '--item', '84713012,1,R$10'], 'unitPrice "R$10" must be an amount such as 1234.50'],
    [[...sale, '--item', '84713012,1,10,0,0,9'], 'too many parts'],
    // A decimal comma: R$ 45,90 or a price of 45 with a discount of 90? Not guessed.
    [
      [...sale, '--item', '39269090,10,45,90'],
      '"45,90" reads as a unit price of 45 and a discount of 90: for 45.90 write a decimal point (39269090,10,45.90); for those two, write the price as 45.00',
    ],
    [
      [...sale, '--item', '39269090,10,45,09,12'],
      '"45,09" reads as a unit price of 45 and a discount of 09: for 45.09 write a decimal point (39269090,10,45.09,12); for those two, write the price as 45.00',
    ],
    [
      ['tax', 'quote', '--rules', 't.csv', '--from', 'XX', '--to', 'RJ', '--buyer', 'taxpayer'],
      'expected a state (UF) such as SP or RJ.',
    ],
    [
      ['tax', 'quote', '--rules', 't.csv', '--from', 'SP', '--to', 'RJ', '--buyer', 'consumer'],
      'Allowed choices are taxpayer, non-taxpayer',
    ],
    [
      ['tax', 'quote', '--from', 'SP', '--to', 'RJ', '--buyer', 'taxpayer'],
      "required option '--rules <file>' not specified",
    ],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });
});

describe('tax serve cli', () => {
  it('hands the table, the ERP with its budget, and the listening flags', async () => {
    expect(
      await parseWithGroup(register, [
        'tax',
        'serve',
        '--rules',
        't.csv',
        '--forward-to',
        'http://erp/impostos',
        '--budget',
        '250ms',
        '--auth',
        'none',
        '--port',
        '0',
      ]),
    ).toMatchObject({
      rules: 't.csv',
      forwardTo: 'http://erp/impostos',
      budget: 250,
      host: '127.0.0.1',
      port: 0,
      path: '/tax',
      auth: 'none',
    });
    expect(
      await parseWithGroup(register, ['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--budget', '10s']),
    ).toMatchObject({ budget: 10_000 });
    expect(await parseWithGroup(register, ['tax', 'serve', '--rules', 't.csv', '--auth', 'bearer'])).toMatchObject({
      budget: 300,
      forwardTo: undefined,
      tokenPath: '/oauth/token',
      tokenTtl: 3600,
      trustProxy: undefined,
    });
  });

  it('hands the token style’s client id, secret file and token route, and the trusted proxies', async () => {
    expect(
      await parseWithGroup(register, [
        'tax',
        'serve',
        '--rules',
        't.csv',
        '--auth',
        'token',
        '--client-id',
        'plataforma',
        '--client-secret-file',
        'segredo',
        '--token-path',
        '/auth/token',
        '--token-ttl',
        '600',
        '--trust-proxy',
        '10.0.0.0/8,127.0.0.1',
        '--proxy-header',
        'Forwarded',
      ]),
    ).toMatchObject({
      auth: 'token',
      clientId: 'plataforma',
      clientSecretFile: 'segredo',
      tokenPath: '/auth/token',
      tokenTtl: 600,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      proxyHeader: 'forwarded',
    });
    expect(
      await parseWithGroup(register, ['tax', 'serve', '--rules', 't.csv', '--auth', 'token', '--trust-proxy', '2']),
    ).toMatchObject({ trustProxy: 2 });
  });

  it.each([
    [['tax', 'serve', '--auth', 'none'], 'give the tax table (--rules FILE), the ERP (--forward-to URL), or both.'],
    [['tax', 'serve', '--rules', 't.csv'], "required option '--auth <kind>' not specified"],
    [['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--path', 'tax'], '--path must start with /'],
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--budget', 'soon'],
      "argument 'soon' is invalid. expected a time such as 300ms or 2s, at most 10s (the ERP's request is closed then).",
    ],
    // A timer past 24.8 days fired at once (TimeoutOverflowWarning): every cart went to the table without a wait.
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--budget', '30d'],
      "argument '30d' is invalid. expected a time such as 300ms or 2s, at most 10s (the ERP's request is closed then).",
    ],
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--budget', '11s'],
      "argument '11s' is invalid. expected a time such as 300ms or 2s, at most 10s (the ERP's request is closed then).",
    ],
    // A bare 300 was 300 s, for a budget whose default is 300 ms.
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--budget', '300'],
      `argument '300' is invalid. expected a time with its unit, such as 300ms or 2s, at most 10s (the ERP's request is closed then): "300" has none.`,
    ],
    [['tax', 'serve', '--rules', 't.csv', '--auth', 'sometimes'], 'Allowed choices are token, bearer, basic, none'],
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'token', '--token-path', 'token'],
      '--token-path must start with /',
    ],
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'token', '--token-path', '/tax'],
      '--token-path and --path must differ',
    ],
    [['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--trust-proxy', '0'], 'a hop count starts at 1'],
    [['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--trust-proxy', '10.0.0/8'], 'is neither a hop count nor'],
    [
      ['tax', 'serve', '--rules', 't.csv', '--auth', 'none', '--proxy-header', 'x-real-ip'],
      'is not a header b2bctl reads',
    ],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });
});
