import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../../../src/command-kit/command-group.js';
import { UsageError } from '../../../src/base/errors.js';
import { register } from '../../../src/commands/webhook/cli.js';

/** Parses argv through the webhook group with the verb mocked: the options it would have been given, or the error. */
async function parse(argv: string[]): Promise<{ options?: unknown; error?: string }> {
  const program = new Command('b2bctl').exitOverride();
  let captured: unknown;
  const dispatch: Dispatch = async (_command, load, options) => {
    expect(typeof load).toBe('function');
    captured = options;
  };
  register(program, dispatch);
  let errorText = '';
  const silence = (command: Command): void => {
    command.exitOverride().configureOutput({ writeErr: (text) => (errorText += text), writeOut: () => undefined });
    for (const subcommand of command.commands) silence(subcommand);
  };
  silence(program);
  try {
    await program.parseAsync(['node', 'b2bctl', 'webhook', ...argv]);
    return { options: captured };
  } catch (error) {
    // Commander's own refusals are written; a refused combination of flags is a UsageError, as runProgram prints it.
    return { error: error instanceof UsageError ? `error: ${error.message}` : errorText.trim() };
  }
}

describe('webhook cli', () => {
  it('listen: defaults and typed flags', async () => {
    expect((await parse(['listen', '--client-id', 'erp'])).options).toEqual({
      host: '127.0.0.1',
      port: 8788,
      clientId: 'erp',
      clientSecretFile: undefined,
      inbox: undefined,
      store: undefined,
      tokenTtl: 3600,
      bodyLimit: 1048576,
      requestTimeout: 10000,
      maxConnections: 1024,
      maxConnectionsPerAddress: 64,
      forwardTo: undefined,
      allowHttp: false,
      exec: undefined,
      execEnv: [],
      fetchOrders: false,
      handoff: undefined,
      fromStart: false,
      giveUpAfter: 72 * 3_600_000,
      forwardTimeout: 30_000,
      forwardBatch: 1,
      maxAttempts: undefined,
      logEvents: false,
      execTimeout: 60_000,
      retain: undefined,
      dedupWindow: 7 * 86_400_000,
      stuckAfter: 900_000,
      tlsCert: undefined,
      tlsKey: undefined,
      groupCommit: true,
    });
    expect(
      (
        await parse([
          'listen',
          '--port',
          '0',
          '--token-ttl',
          '1',
          '--forward-to',
          'http://erp/hook',
          '--exec',
          'cat',
          '--fetch-orders',
          '--no-group-commit',
          '--store',
          'postgres://hooks@db/webhooks',
          '--max-attempts',
          '3',
          '--give-up-after',
          '2h',
          '--forward-timeout',
          '5s',
          '--log-events',
          '--exec-timeout',
          '90s',
          '--retain',
          '30d',
          '--dedup-window',
          '2d',
          '--stuck-after',
          '10m',
          '--from-start',
          '--trust-proxy',
          '127.0.0.1,10.0.0.0/8',
          '--proxy-header',
          'Forwarded',
        ])
      ).options,
    ).toMatchObject({
      trustProxy: ['127.0.0.1', '10.0.0.0/8'],
      proxyHeader: 'forwarded',
      port: 0,
      tokenTtl: 1,
      forwardTo: 'http://erp/hook',
      exec: 'cat',
      fetchOrders: true,
      groupCommit: false,
      store: 'postgres://hooks@db/webhooks',
      maxAttempts: 3,
      giveUpAfter: 2 * 3_600_000,
      forwardTimeout: 5000,
      logEvents: true,
      execTimeout: 90_000,
      retain: 30 * 86_400_000,
      dedupWindow: 2 * 86_400_000,
      stuckAfter: 600_000,
      fromStart: true,
    });
    expect((await parse(['listen', '--exec', 'cat', '--handoff', 'erp-import'])).options).toMatchObject({
      handoff: 'erp-import',
    });
    expect(
      (
        await parse([
          'listen',
          '--exec',
          'cat',
          '--exec-env',
          'ERP_URL',
          '--exec-env',
          'PGPASSFILE',
          '--max-connections',
          '64',
        ])
      ).options,
    ).toMatchObject({ execEnv: ['ERP_URL', 'PGPASSFILE'], maxConnections: 64 });
    expect((await parse(['replay', '--id', '1', '--exec', 'cat', '--exec-env', 'ERP_URL'])).options).toMatchObject({
      execEnv: ['ERP_URL'],
    });
  });

  it('reads every time flag in the one duration grammar: weeks, decimals, milliseconds', async () => {
    expect(
      (await parse(['listen', '--retain', '1w', '--dedup-window', '1.5h', '--exec-timeout', '500ms'])).options,
    ).toMatchObject({ retain: 604_800_000, dedupWindow: 5_400_000, execTimeout: 500 });
  });

  it.each([
    [['listen', '--port', 'x'], /--port <port>' argument 'x' is invalid\. expected a whole number/],
    [['listen', '--port', '65536'], /expected a port from 0 to 65535/],
    [['listen', '--token-ttl', '0'], /expected a whole number of at least 1/],
    [['listen', '--forward-to', 'ftp://x'], /expected an http:\/\/ or https:\/\/ URL/],
    [
      ['listen', '--forward-to', 'erp.local/hook'],
      /expected an absolute URL .* did you mean https:\/\/erp.local\/hook\?/,
    ],
    [['listen', '--trust-proxy', 'nginx'], /"nginx" is neither a hop count nor an IP address or CIDR range/],
    [['listen', '--proxy-header', 'x-real-ip'], /"x-real-ip" is not a header b2bctl reads/],
    [['listen', '--client-secret', 's'], /unknown option '--client-secret'/],
    [['listen', '--exec-env', 'ERP URL=x'], /expected the name of an environment variable, such as ERP_DATABASE_URL/],
    [['listen', '--max-connections', '0'], /expected a whole number of at least 1/],
    [['trigger', 'invoices', '--url', 'http://x', '--client-id', 'a'], /expected customers or orders/],
    [['trigger', 'orders', '--client-id', 'a'], /required option '--url <base>' not specified/],
    [
      ['trigger', 'orders', '--url', 'http://x', '--client-id', 'a', '--style', 'oauth'],
      /Allowed choices are basic, body, headers/,
    ],
    [['inbox', '--since', 'yesterday'], /expected an ISO-8601 date or time/],
    [['replay'], /give exactly one of --to URL or --exec COMMAND/],
    [['replay', '--to', 'http://x'], /choose the events: --id ID\.\.\., --since TIME \[--until TIME\], or --dead/],
    [['replay', '--to', 'http://x', '--id', 'abc'], /expected an event id/],
    [['listen', '--retain', 'forever'], /expected a duration such as 30d/],
    [['listen', '--store', 'mysql://db'], /expected a PostgreSQL URL/],
    [['dead', 'retry'], /name the events: webhook dead retry ID/],
    [['dead', 'revive', '1'], /expected list, retry or drop/],
    [
      ['dead', 'retry', 'abc'],
      /webhook dead retry abc: expected an event id \(a whole number, see webhook dead list\)/,
    ],
    [['dead', 'drop', '3', '0x3'], /webhook dead drop 0x3: expected an event id/],
    [['dead', 'list', '5'], /webhook dead list takes no ids/],
    [['replay', '--to', 'http://x', '--exec', 'cat'], /give exactly one of --to URL or --exec COMMAND/],
  ])('refuses %j', async (argv, message) => {
    const result = await parse(argv);
    expect(result.options).toBeUndefined();
    expect(result.error).toMatch(message);
  });

  it('listen and replay: --forward-batch from 1 to 32 events, anything else a usage error', async () => {
    expect((await parse(['listen', '--client-id', 'erp', '--forward-batch', '32'])).options).toMatchObject({
      forwardBatch: 32,
    });
    expect((await parse(['replay', '--dead', '--to', 'http://r:1', '--forward-batch', '5'])).options).toMatchObject({
      forwardBatch: 5,
    });
    expect(await parse(['replay', '--dead', '--exec', 'cat', '--forward-batch', '5'])).toEqual({
      error: 'error: --forward-batch says how --to POSTs events: give it with --to URL.',
    });
    for (const wrong of ['0', '33', '2.5', 'ten'])
      expect(await parse(['listen', '--client-id', 'erp', '--forward-batch', wrong])).toEqual({
        error: `error: option '--forward-batch <n>' argument '${wrong}' is invalid. expected a number of events from 1 to 32.`,
      });
  });

  it('trigger and replay: options', async () => {
    expect(
      (await parse(['trigger', 'orders', '--url', 'http://r:1', '--client-id', 'a', '--style', 'headers'])).options,
    ).toEqual({
      kind: 'orders',
      url: 'http://r:1',
      style: 'headers',
      clientId: 'a',
      clientSecretFile: undefined,
      data: undefined,
      tokenPath: undefined,
      eventPath: undefined,
      allowHttp: false,
    });
    expect(
      (await parse(['replay', '--since', '2026-11-23T00:00:00Z', '--exec', 'cat', '--kind', 'customers'])).options,
    ).toEqual({
      kind: 'customers',
      since: '2026-11-23T00:00:00.000Z',
      exec: 'cat',
      attempts: 3,
      execTimeout: 60_000,
    });
    expect((await parse(['replay', '--id', '7', '--id', '9', '--to', 'http://r:1'])).options).toMatchObject({
      id: [7, 9],
      to: 'http://r:1',
    });
    expect((await parse(['dead', 'drop', '4', '5', '--handoff', 'forward'])).options).toEqual({
      action: 'drop',
      ids: [4, 5],
      handoff: 'forward',
    });
  });

  it('inbox and replay share --inbox, --kind and --since, every flag handed on under its option name', async () => {
    const selection = ['--inbox', 'in', '--kind', 'orders', '--since', '2026-11-23T00:00:00Z'];
    expect((await parse(['inbox', ...selection, '--until', '2026-11-24T00:00:00Z', '--pending'])).options).toEqual({
      inbox: 'in',
      kind: 'orders',
      since: '2026-11-23T00:00:00.000Z',
      until: '2026-11-24T00:00:00.000Z',
      pending: true,
    });
    expect((await parse(['replay', ...selection, '--to', 'http://r:1', '--attempts', '5'])).options).toEqual({
      inbox: 'in',
      kind: 'orders',
      since: '2026-11-23T00:00:00.000Z',
      to: 'http://r:1',
      attempts: 5,
      execTimeout: 60_000,
    });
  });
});
