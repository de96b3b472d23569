/**
 * A bulk run whose store's certificate Node does not trust (its own authority, no NODE_EXTRA_CA_CERTS: a cron job
 * without the variable the shell exported). A user test: the closing line said "when it is back, run", but the store
 * never went away, and the resume failed the same way until the variable was set. The line says what to set right.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { repoRoot } from '../../support/sandbox.js';

const tls = join(repoRoot, 'test', 'fixtures', 'tls');
let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  // A certificate of its own (self-signed for 127.0.0.1), which this process does not trust.
  server = createServer(
    { cert: readFileSync(join(tls, 'localhost.cert.pem')), key: readFileSync(join(tls, 'localhost.key.pem')) },
    (_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function push(rows: number) {
  const folder = freshWorkDir();
  const items = Array.from({ length: rows }, (_, index) => `SKU-${index + 1},1,2.50`);
  writeFileSync(join(folder, 'stock.csv'), `sku,quantity,price\n${items.join('\n')}\n`);
  const flags = ['--route', 'batch', '--batch-size', '1', '--concurrency', '1', '--retries', '1'];
  return runCommandLine(['stock', 'push', 'stock.csv', ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
    clock: new FakeClock(Date.UTC(2026, 11, 1, 2, 0, 0)),
  });
}

const remedyText =
  "the platform's certificate was refused, which waiting does not mend: once NODE_EXTRA_CA_CERTS points at the certificate of the authority that issued it, in the environment this command runs in (a cron job's or a service's too), run: ";
const remedy = remedyText.replace(/[()]/g, '\\$&');

describe('a bulk run refused by the store certificate', () => {
  it('every request of the run: the closing line says to set NODE_EXTRA_CA_CERTS, never "when it is back"', async () => {
    const result = await push(2);
    expect(result.code).toBe(69);
    expect(result.stderr).toContain('is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(result.stderr).toMatch(
      new RegExp(
        `No request of this run reached the platform \\(2 items not sent\\); ${remedy}\\S* ?b2bctl stock push`,
      ),
    );
    expect(result.stderr).not.toContain('is back');
    expect(requests).toBe(0);
  });

  it('stopped after 3 requests in a row: the same remedy, never "when the platform is back"', async () => {
    const result = await push(5);
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(
      new RegExp(`Stopped after 3 failed requests in a row; ${remedy}\\S* ?b2bctl stock push .*--resume \\S+`),
    );
    expect(result.stderr).not.toContain('is back');
    expect(requests).toBe(0);
  });
});
