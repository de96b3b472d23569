/**
 * The node server's timeouts, shared by the receiver and `tax serve` (node's own, 60 s for the headers and 300 s for
 * the request, let a client that trickles hold a connection for minutes): the headers within the request's time too (at most a minute), and requests past
 * their time looked for every quarter of it, from every 50 ms to once a second: a 408 comes at most a quarter late.
 */
export function serverTimeouts(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(requestTimeoutMs, 60_000),
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    keepAliveTimeout: 5000,
  };
}
