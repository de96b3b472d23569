import type { Server } from 'node:net';

/**
 * Caps the connections a server keeps open: past `max`, node closes a new connection as it accepts it, so a flood
 * cannot take the descriptors that real requests need. Refusals are logged once a minute at most, with their count.
 */
export function limitConnections(
  server: Server,
  max: number,
  log: ((message: string) => void) | undefined,
  now: () => number = Date.now,
): void {
  server.maxConnections = max;
  let dropped = 0;
  let loggedAt: number | undefined;
  server.on('drop', () => {
    dropped++;
    if (loggedAt !== undefined && now() - loggedAt < 60_000) return;
    loggedAt = now();
    log?.(
      `Closed ${dropped} connection${dropped === 1 ? '' : 's'} as they arrived: ${max} were open already (--max-connections).`,
    );
    dropped = 0;
  });
}
