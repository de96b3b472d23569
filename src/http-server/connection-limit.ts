import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import { countOf } from '../lib/plural.js';
import { countedAddress } from './counted-address.js';
import { ThrottledLog } from './throttled-log.js';

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
 * Caps the connections a server keeps open. Past `perAddress` from one client address (not a trusted proxy) a new
 * one is closed as it arrives, so one client's idle connections cannot take the descriptors and the turns that the
 * platform's requests need. Past `max` in all, the cap makes room rather than shutting everyone new out (a few
 * addresses at `perAddress` each would fill it): the address holding the most open connections loses one, an idle
 * one first, unless it is the newcomer's own, which is then closed. Closings are logged at once, then once a minute
 * at most, naming the addresses and how many.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  log: ((message: string) => void) | undefined,
  schedule?: (run: () => void, ms: number) => void,
): void {
  const overAll = `each from the address holding the most of the ${limits.max} open (--max-connections)`;
  const arrivedOverAll = closedConnectionLines(log, overAll, schedule);
  const madeRoom = closedConnectionLines(log, overAll, schedule, toMakeRoom);
  const arrivedOverOne = closedConnectionLines(
    log,
    `each from an address with ${limits.perAddress} open already (--max-connections-per-address)`,
    schedule,
  );
  const open = new OpenConnections();
  server.on('request', (request: IncomingMessage, response: ServerResponse) =>
    open.requestStarted(request.socket, response),
  );
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    const trusted = limits.trustedPeer?.(peer) ?? false;
    const address = trusted ? peer : countedAddress(peer);
    if (!trusted && open.countFrom(address) >= limits.perAddress) {
      socket.destroy();
      arrivedOverOne(address);
      return;
    }
    if (open.total >= limits.max) {
      const victim = open.makeRoomFor(address, trusted);
      if (victim === undefined) {
        socket.destroy();
        arrivedOverAll(address);
        return;
      }
      victim.socket.destroy();
      madeRoom(victim.address);
    }
    open.add(socket, address, trusted);
  });
}

/** An open connection as the cap counts it: its client (an IPv6 one by its /64) and its requests not yet answered. */
interface OpenConnection {
  socket: Socket;
  address: string;
  trusted: boolean;
  key: string;
  requestsInProgress: number;
  /** Still in the count: false once closed to make room or gone. */
  counted: boolean;
}

/**
 * The open connections by client address, a trusted proxy's apart: which to close when the cap is reached. Each
 * connection is found again by its peer's address and port, which a TLS connection's requests share with the raw
 * socket the cap saw arrive.
 */
class OpenConnections {
  private readonly direct = new Map<string, Set<OpenConnection>>();
  private readonly throughProxy = new Map<string, Set<OpenConnection>>();
  private readonly byPeer = new Map<string, OpenConnection>();
  private open = 0;

  get total(): number {
    return this.open;
  }

  countFrom(address: string): number {
    return this.direct.get(address)?.size ?? 0;
  }

  add(socket: Socket, address: string, trusted: boolean): void {
    const connection = { socket, address, trusted, key: peerKey(socket), requestsInProgress: 0, counted: true };
    this.open++;
    const groups = trusted ? this.throughProxy : this.direct;
    const group = groups.get(address) ?? new Set();
    groups.set(address, group.add(connection));
    this.byPeer.set(connection.key, connection);
    socket.once('close', () => this.remove(connection));
  }

  requestStarted(socket: Socket, response: ServerResponse): void {
    const connection = this.byPeer.get(peerKey(socket));
    if (connection === undefined) return;
    connection.requestsInProgress++;
    response.once('close', () => connection.requestsInProgress--);
  }

  /**
   * The connection to close so that one from `address` may stay, taken out of the count; or undefined when the
   * newcomer's own address holds the most, so the newcomer is the one to close. A trusted proxy's connections,
   * which carry many clients, lose one only when nothing else is open.
   */
  makeRoomFor(address: string, trusted: boolean): OpenConnection | undefined {
    const pool = this.direct.size > 0 ? this.direct : this.throughProxy;
    let busiest: Set<OpenConnection> | undefined;
    for (const group of pool.values()) if (busiest === undefined || group.size > busiest.size) busiest = group;
    const newcomerInPool = (pool === this.throughProxy) === trusted;
    if (busiest === undefined || (newcomerInPool && (pool.get(address)?.size ?? 0) >= busiest.size)) return undefined;
    // An idle keep-alive connection, or one whose request has not come whole, loses nothing; the oldest first.
    let victim: OpenConnection | undefined;
    for (const connection of busiest)
      if (connection.requestsInProgress === 0) {
        victim = connection;
        break;
      }
    victim ??= busiest.values().next().value;
    if (victim !== undefined) this.remove(victim);
    return victim;
  }

  /**
   * Forgets a connection, once: when closed to make room, and again when its close comes. A connection reset before
   * it was accepted has no peer to be found by (its key is shared), yet it is counted and forgotten as any other.
   */
  private remove(connection: OpenConnection): void {
    if (!connection.counted) return;
    connection.counted = false;
    this.open--;
    if (this.byPeer.get(connection.key) === connection) this.byPeer.delete(connection.key);
    const groups = connection.trusted ? this.throughProxy : this.direct;
    const group = groups.get(connection.address);
    group?.delete(connection);
    if (group?.size === 0) groups.delete(connection.address);
  }
}

function peerKey(socket: Socket): string {
  return `${socket.remoteAddress ?? ''} ${socket.remotePort ?? ''}`;
}

const asTheyArrived = (count: number) => `as ${count === 1 ? 'it' : 'they'} arrived`;
const toMakeRoom = (count: number) => `to make room for ${count === 1 ? 'a new one' : 'new ones'}`;

/**
 * The lines about connections closed for one cause, `how` (as they arrived, or to make room): the first said at
 * once, the others counted per address and said in one line when its minute is over.
 */
export function closedConnectionLines(
  log: ((message: string) => void) | undefined,
  cause: string,
  schedule?: (run: () => void, ms: number) => void,
  how: (count: number) => string = asTheyArrived,
): (address: string) => void {
  const lines = new ThrottledLog({
    log,
    windowMs: 60_000,
    // One line at once is the alarm; the addresses are the summary's to name.
    linesPerWindow: 1,
    schedule,
    summary: ({ count, from, seconds }) =>
      `Closed ${countOf(count, 'connections')} ${how(count)} in the last ${seconds} s: ${from}; ${cause}.`,
  });
  return (address) => lines.event(address, () => `Closed 1 connection ${how(1)}: 1 from ${address}; ${cause}.`);
}
