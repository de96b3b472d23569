import type { Server, Socket } from 'node:net';
import { countOf } from '../lib/plural.js';
import { countedAddress } from './counted-address.js';

/** How many connections a server keeps open, in all and from one client address. */
export interface ConnectionLimits {
  /** Open at once in all (`--max-connections`). */
  max: number;
  /** Open at once from one client address, an IPv6 one by its /64 (`--max-connections-per-address`). */
  perAddress: number;
  /**
   * Whether a direct peer is a trusted proxy (`--trust-proxy`): it carries many clients' connections, so it is held
   * to `max` alone, and the proxy limits each client itself (nginx `limit_conn`).
   */
  trustedPeer?: (address: string) => boolean;
}

/** Connections the operating system's descriptors and a cart's or an event's work can bear from one client. */
export const defaultConnectionsPerAddress = 64;

/**
 * Caps the connections a server keeps open: past `max` in all, node closes a new connection as it accepts it, and
 * past `perAddress` from one client address (not a trusted proxy) this closes it, so one client's idle connections
 * cannot take the descriptors and the turns that the platform's requests need. Refusals are logged at once, then
 * once a minute at most, naming the addresses and how many.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  log: ((message: string) => void) | undefined,
  schedule: (run: () => void, ms: number) => void = unrefTimeout,
): void {
  server.maxConnections = limits.max;
  const overAll = new RefusedConnections(log, `${limits.max} were open already (--max-connections)`, schedule);
  const overOne = new RefusedConnections(
    log,
    `each from an address with ${limits.perAddress} open already (--max-connections-per-address)`,
    schedule,
  );
  server.on('drop', (data?: { remoteAddress?: string }) => overAll.refused(countedAddress(data?.remoteAddress ?? '')));
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    if (limits.trustedPeer?.(peer)) return;
    const address = countedAddress(peer);
    const count = open.get(address) ?? 0;
    if (count >= limits.perAddress) {
      socket.destroy();
      overOne.refused(address);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

function unrefTimeout(run: () => void, ms: number): void {
  setTimeout(run, ms).unref();
}

/** Addresses named in a line; the others are counted together. */
const namedAddressesAtMost = 3;
const refusalWindowMs = 60_000;

/**
 * Connections closed as they arrived, for one cause: the first said at once, those after it counted per address
 * and said in one line when its minute is over, then a minute at a time while they go on.
 */
export class RefusedConnections {
  private counts = new Map<string, number>();
  /** Refusals from addresses past the ten thousand the map holds. */
  private uncounted = 0;
  private windowOpen = false;

  constructor(
    private readonly log: ((message: string) => void) | undefined,
    private readonly cause: string,
    private readonly schedule: (run: () => void, ms: number) => void = unrefTimeout,
  ) {}

  refused(address: string): void {
    if (!this.windowOpen) {
      this.windowOpen = true;
      this.log?.(this.line(new Map([[address, 1]]), ''));
      this.schedule(() => this.windowEnded(), refusalWindowMs);
      return;
    }
    // A flood of new addresses is counted in the line, never kept without bound.
    if (this.counts.has(address) || this.counts.size < 10_000)
      this.counts.set(address, (this.counts.get(address) ?? 0) + 1);
    else this.uncounted++;
  }

  private windowEnded(): void {
    const counts = this.counts;
    if (this.uncounted > 0) counts.set('other addresses', this.uncounted);
    this.counts = new Map();
    this.uncounted = 0;
    if (counts.size === 0) {
      this.windowOpen = false;
      return;
    }
    this.log?.(this.line(counts, ` in the last ${refusalWindowMs / 1000} s`));
    this.schedule(() => this.windowEnded(), refusalWindowMs);
  }

  private line(counts: Map<string, number>, span: string): string {
    const sorted = [...counts].toSorted((a, b) => b[1] - a[1]);
    const total = sorted.reduce((sum, [, count]) => sum + count, 0);
    const named = sorted.slice(0, namedAddressesAtMost).map(([address, count]) => `${count} from ${address}`);
    const others = sorted.slice(namedAddressesAtMost);
    if (others.length > 0)
      named.push(
        `${others.reduce((sum, [, count]) => sum + count, 0)} from ${countOf(others.length, 'more addresses')}`,
      );
    return `Closed ${countOf(total, 'connections')} as ${total === 1 ? 'it' : 'they'} arrived${span}: ${named.join(', ')}; ${this.cause}.`;
  }
}
