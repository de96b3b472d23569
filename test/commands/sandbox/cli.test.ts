import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/sandbox/cli.js';
import { parseWithGroup } from '../../support/parse-group.js';

const defaults = {
  host: '127.0.0.1',
  port: 8787,
  username: undefined,
  tokenTtl: undefined,
  latency: undefined,
  failRate: undefined,
  resetRate: undefined,
  rateLimit: undefined,
  seed: undefined,
  settings: undefined,
  generatedSkus: undefined,
  stockSchema: undefined,
  orderChurn: undefined,
  orders: undefined,
  webhookUrl: undefined,
  webhookStyle: 'basic',
  webhookClientId: undefined,
  webhookTokenPath: '/oauth/token',
  ordersWebhook: 'simplified',
  taxStyle: 'basic',
  taxTokenPath: '/oauth/token',
  dialect: undefined,
  clockOffset: undefined,
};

describe('sandbox cli', () => {
  it.each([
    [['sandbox'], defaults],
    [
      [
        'sandbox',
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--username',
        'erp@store.test',
        '--token-ttl',
        '60',
        '--latency',
        '5',
        '--fail-rate',
        '0.05',
        '--reset-rate',
        '0.01',
        '--rate-limit',
        '10',
        '--seed',
        'seed',
        '--settings',
        's.json',
        '--generated-skus',
        '10',
        '--stock-schema',
        'names.json',
        '--order-churn',
        '0.5',
        '--orders',
        '3',
        '--webhook-url',
        'http://127.0.0.1:8788',
        '--webhook-style',
        'headers',
        '--webhook-client-id',
        'id',
        '--webhook-token-path',
        '/token',
        '--tax-callback',
        'http://127.0.0.1:8790/tax',
        '--tax-client-id',
        'plataforma',
        '--tax-style',
        'headers',
        '--tax-token-path',
        '/t',
        '--dialect',
        'spring',
        '--clock-offset',
        '-30',
      ],
      {
        host: '0.0.0.0',
        port: 0,
        username: 'erp@store.test',
        tokenTtl: 60,
        latency: 5,
        failRate: 0.05,
        resetRate: 0.01,
        rateLimit: 10,
        seed: 'seed',
        settings: 's.json',
        generatedSkus: 10,
        stockSchema: 'names.json',
        orderChurn: 0.5,
        orders: 3,
        webhookUrl: 'http://127.0.0.1:8788',
        webhookStyle: 'headers',
        webhookClientId: 'id',
        webhookTokenPath: '/token',
        ordersWebhook: 'simplified',
        taxCallback: 'http://127.0.0.1:8790/tax',
        taxClientId: 'plataforma',
        taxStyle: 'headers',
        taxTokenPath: '/t',
        dialect: 'spring',
        clockOffset: -30,
      },
    ],
  ])('%j hands the typed options', async (argv, expected) => {
    expect(await parseWithGroup(register, argv)).toEqual(expected);
  });

  it('--tax-timeout takes a time up to 60s, a bare number in seconds as it always was', async () => {
    expect(await parseWithGroup(register, ['sandbox', '--tax-timeout', '5'])).toMatchObject({ taxTimeout: 5000 });
    expect(await parseWithGroup(register, ['sandbox', '--tax-timeout', '60s'])).toMatchObject({ taxTimeout: 60_000 });
  });

  it.each([
    [['sandbox', '--port', '-1'], 'expected a whole number (0 or more).'],
    // Past 65535 the socket's own error was printed, with exit 1.
    [['sandbox', '--port', '99999'], 'expected a port from 0 to 65535 (0 picks a free one).'],
    [['sandbox', '--fail-rate', '2'], 'expected a number from 0 to 1, such as 0.05.'],
    [['sandbox', '--webhook-url', 'ftp://x'], 'expected an http:// or https:// URL'],
    [['sandbox', '--webhook-style', 'oauth'], 'Allowed choices are basic, body, headers.'],
    // Number('abc') was NaN, started the sandbox with no offset at all.
    [['sandbox', '--clock-offset', 'abc'], 'expected a number of seconds, such as 90 or -90.'],
    // A timer past 24.8 days fired at once: every cart was refused 504 without a wait.
    [
      ['sandbox', '--tax-timeout', '30d'],
      "argument '30d' is invalid. expected a time such as 3s or 500ms, at most 60s (a checkout waits no longer for its taxes).",
    ],
    [
      ['sandbox', '--tax-timeout', '0'],
      "argument '0' is invalid. expected a time such as 3s or 500ms, at most 60s (a checkout waits no longer for its taxes).",
    ],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });
});
