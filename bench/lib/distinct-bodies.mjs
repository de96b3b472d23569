// The limit a user would name for a stock push: the file's own request bodies, every one distinct, serialised before
// the clock starts, then sent with undici at the push's concurrency to the same sandbox. No reading, no validation:
// only the wire and the platform. Prints one JSON line {requests, ms}.
// Usage: node distinct-bodies.mjs URL TOKEN FILE CONNECTIONS ITEMS_PER_REQUEST
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const [url, token, file, connectionsText, perRequestText] = process.argv.slice(2);
const connections = Number(connectionsText);
const perRequest = Number(perRequestText);

const lines = readFileSync(file, 'utf8').split('\n').slice(1);
const bodies = [];
let items = [];
for (const line of lines) {
  if (line === '') continue;
  const [sku, quantity, price, salePrice, warehouse] = line.split(',');
  items.push({
    sku,
    quantity: Number(quantity),
    price: Number(price),
    ...(salePrice ? { salePrice: Number(salePrice) } : {}),
    ...(warehouse ? { warehouse } : {}),
  });
  if (items.length === perRequest) {
    bodies.push(JSON.stringify({ items }));
    items = [];
  }
}
if (items.length > 0) bodies.push(JSON.stringify({ items }));

const origin = new URL(url);
const pool = new Pool(origin.origin, { connections, pipelining: 1 });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
let next = 0;
let failures = 0;
const started = performance.now();
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const answer = await pool.request({ path: '/api/v1/stocks/batch', method: 'POST', headers, body });
    await answer.body.dump();
    if (answer.statusCode >= 300) failures++;
  }
}
await Promise.all(Array.from({ length: connections }, worker));
const ms = performance.now() - started;
await pool.close();
console.log(JSON.stringify({ requests: bodies.length, ms, failures }));
