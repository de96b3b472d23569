/**
 * A plain-HTTP connection to the name `localhost` carries credentials because it is this machine: the resolver's
 * answer must say so. One that is another machine's address fails the connection (a hosts file may map the name
 * elsewhere); loopback answers, one or all of a list, pass as they came.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { thisMachineOnly } from '../../../src/net/dispatcher.js';

const answering =
  (address: string | LookupAddress[]) =>
  (_host: string, _options: LookupOptions, callback: (e: null, a: string | LookupAddress[], f?: number) => void) =>
    callback(null, address, typeof address === 'string' ? 4 : undefined);

function resolved(address: string | LookupAddress[], options: LookupOptions = {}) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((resolve) =>
    thisMachineOnly(answering(address) as never)('localhost', options, (error, answer) =>
      resolve({ error, address: answer }),
    ),
  );
}

describe('thisMachineOnly', () => {
  it.each(['127.0.0.1', '::1', '127.0.1.1'])('passes %s as it came', async (address) => {
    expect(await resolved(address)).toEqual({ error: null, address });
  });

  it('passes a list of loopback addresses, and fails one that holds another machine', async () => {
    const loopback = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
    expect(await resolved(loopback, { all: true })).toEqual({ error: null, address: loopback });
    const mixed = await resolved([...loopback, { address: '192.0.2.2', family: 4 }], { all: true });
    expect(mixed.error?.code).toBe('ENOTLOCAL');
  });

  it('fails another machine, naming the address', async () => {
    const { error } = await resolved('192.0.2.2');
    expect(error?.code).toBe('ENOTLOCAL');
    expect(error?.message).toBe(
      'localhost resolves to 192.0.2.2, not this machine: plain HTTP, which b2bctl takes to this machine only, would carry the credentials in clear there. Use http://127.0.0.1, or https://',
    );
  });
});
