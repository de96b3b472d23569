import { describe, expect, it } from 'vitest';
import { countedAddress } from '../../../src/http-server/counted-address.js';

// y/Y3: a client with an IPv6 /64 (what any provider hands out) rotated through its addresses, each counted apart.
describe('the address a client is counted as', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:0:c34f::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['2001:db8:0:0:1::', '2001:db8::/64'],
    ['1:0:0:4:5:6:7:8', '1:0:0:4::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
    ['::1', '::1'],
    ['::1.2.3.4', '::/64'],
    ['not an address', 'not an address'],
  ])('%s: %s', (address, counted) => {
    expect(countedAddress(address)).toBe(counted);
  });
});
