import { isIP } from 'node:net';

/**
 * What a client is counted as by the limits per address (wrong secrets, open connections) and named as in their log
 * lines: an IPv4 address as it is (one written IPv4-mapped, `::ffff:203.0.113.7`, as IPv4), an IPv6 address by its
 * /64 (`2001:db8:1:2::/64`). Any provider hands a client a whole /64, 2^64 addresses to rotate through, so an IPv6
 * address alone would limit nobody (decision 0034). Anything that is not an address is returned as it is.
 */
export function countedAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address.split('%')[0] ?? '');
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6] ?? 0, groups[7] ?? 0].flatMap((group) => [group >> 8, group & 0xff]).join('.');
  // The loopback address is this machine alone, whatever its /64 holds: named as itself.
  if (groups.every((group, index) => group === (index === 7 ? 1 : 0))) return '::1';
  return `${compressed([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const before = groupsOf(head);
  const after = groupsOf(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The RFC 5952 text of eight groups: lower-case hex, the longest run of two or more zero groups written `::`. */
function compressed(groups: number[]): string {
  let best = { start: -1, length: 1 };
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** The groups of one side of an IPv6 address's `::`, a dotted IPv4 tail as two. */
function groupsOf(text: string | undefined): number[] {
  return (text ?? '')
    .split(':')
    .filter((part) => part !== '')
    .flatMap((part) => {
      if (!part.includes('.')) return [Number.parseInt(part, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
}
