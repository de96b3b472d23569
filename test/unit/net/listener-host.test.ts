/**
 * Whether a server told to listen on a host listens on this machine only: the name `localhost` is what the resolver
 * makes of it, and a hosts file may map it to another machine's address (a resolver answering as such a hosts file
 * would is given here).
 */
import { describe, expect, it } from 'vitest';
import { listensOnThisMachineOnly } from '../../../src/net/plain-http.js';

const resolvingTo =
  (...addresses: string[]) =>
  async (host: string) => {
    if (host !== 'localhost') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address }));
  };

describe('listensOnThisMachineOnly', () => {
  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]'])('%s: yes, without asking the resolver', async (host) => {
    expect(await listensOnThisMachineOnly(host, resolvingTo('192.0.2.2'))).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.0.2.2', 'app.localhost', 'erp.example.com'])('%s: no', async (host) => {
    expect(await listensOnThisMachineOnly(host, resolvingTo('127.0.0.1'))).toBe(false);
  });

  it('localhost: yes while every address it resolves to is a loopback one, no once one is not', async () => {
    expect(await listensOnThisMachineOnly('localhost', resolvingTo('127.0.0.1', '::1'))).toBe(true);
    expect(await listensOnThisMachineOnly('localhost', resolvingTo('192.0.2.2'))).toBe(false);
    expect(await listensOnThisMachineOnly('localhost', resolvingTo('127.0.0.1', '192.0.2.2'))).toBe(false);
    expect(await listensOnThisMachineOnly('localhost', resolvingTo())).toBe(false);
  });

  it("localhost on this machine's own resolver", async () => {
    // This machine's hosts file maps localhost to loopback addresses, as a fresh install does.
    expect(await listensOnThisMachineOnly('localhost')).toBe(true);
  });
});
