// A listing-only platform for the orders catch-up memory benchmark: N orders computed from their index (order i is
// created and last updated at start + i seconds), answered by the listing rules b2bctl relies on (newest first by
// creation, updatedFrom/updatedTo, limit capped at 25, offset, [] at the end) without holding them, so a
// 1,000,000-order store costs the server nothing and the measured process is the CLI alone.
import { createServer } from 'node:http';

const cap = 25;
const stepMs = 1000;

/** Starts the server on an ephemeral loopback port; resolves with its URL, the orders' first instant and stop(). */
export async function startSyntheticOrders(count, nowMs = Date.now()) {
  const startMs = Math.floor((nowMs - (count + 120) * stepMs) / 1000) * 1000;
  const instant = (id) => new Date(startMs + id * stepMs).toISOString();
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    if (url.pathname !== '/v1/orders') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const from = Date.parse(url.searchParams.get('updatedFrom') ?? '') || Number.NEGATIVE_INFINITY;
    const to = Date.parse(url.searchParams.get('updatedTo') ?? '') || Number.POSITIVE_INFINITY;
    const limit = Math.min(cap, Number(url.searchParams.get('limit') ?? 5));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    // Ids whose instant lies in [from, to], newest (highest id) first.
    const lowest = Math.max(1, Math.ceil((from - startMs) / stepMs));
    const highest = Math.min(count, Math.floor((to - startMs) / stepMs));
    const page = [];
    for (let id = highest - offset; id >= lowest && page.length < limit; id--) {
      page.push({
        id,
        orderId: 100_000_000 + id,
        status: 'AWAITING_PAYMENT',
        approvalWorkflow: false,
        workflowIsApproved: false,
        dateCreated: instant(id),
        lastUpdated: instant(id),
        partnerCompanyName: 'Atacadão Brandão Ltda',
        partnerDocument: '31.050.529/0001-43',
      });
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    firstInstant: new Date(startMs).toISOString(),
    lastInstant: instant(count),
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
