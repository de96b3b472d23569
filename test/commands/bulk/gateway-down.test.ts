/**
 * A store down behind its proxy: the gateway in front of it (nginx) answers every request 502 with its HTML page. A
 * user test: `stock push` reported every item `unknown`, went on past 3 failed requests and exited 1, which a nightly
 * monitor reads as a file to fix. The gateway's 502-504 after the retries is the platform failing (exit 69: "3
 * requests in a row"), as the platform's own is: the run stops after 3 in a row with the resume command, its items
 * still `unknown` (the 502 may come after the platform applied them). The customer commands share the bulk run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { sampleDocuments } from '../../support/customers.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

const nginxPage =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The gateway of a store that is down: every route answers 502 with nginx's page. */
function gatewayDown(): void {
  platform.routes['*'] = (_request, _body, response) =>
    response.writeHead(502, { 'content-type': 'text/html', server: 'nginx' }).end(nginxPage);
}

/** Five documents of the sample customers, each a valid CPF or CNPJ. */
const documents = sampleDocuments(readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8')).slice(0, 5);

const runs = [
  {
    name: 'stock push',
    file: 'stock.csv',
    text: `sku,quantity,price\n${['A1', 'B2', 'C3', 'D4', 'E5'].map((sku) => `${sku},1,2.50`).join('\n')}\n`,
    argv: ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '1'],
    request: 'PUT /v1/stock/batch',
  },
  {
    name: 'customer update',
    file: 'update.csv',
    text: `document,name\n${documents.map((document) => `${document},Nome Novo`).join('\n')}\n`,
    argv: ['customer', 'update', 'update.csv'],
    request: 'PUT /v1/customer/',
  },
  {
    name: 'customer status',
    file: 'status.csv',
    text: `document,active\n${documents.map((document) => `${document},false`).join('\n')}\n`,
    argv: ['customer', 'status', 'status.csv'],
    request: 'PUT /v1/customer/updateStatus/',
  },
];

describe('a bulk run whose platform is down behind its gateway (502 with an HTML page on every request)', () => {
  it.each(runs)(
    '$name: stops after 3 failed requests in a row, exit 69, the items unknown, with the resume command',
    async ({ name, file, text, argv, request }) => {
      gatewayDown();
      const folder = freshWorkDir();
      writeFileSync(join(folder, file), text);
      const result = await runCommandLine([...argv, '--concurrency', '1', '--retries', '1'], {
        configDir: freshConfigDir(),
        env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
        cwd: folder,
        // The retries' waits are counted, not slept.
        clock: new FakeClock(Date.UTC(2026, 11, 1, 2, 0, 0)),
      });
      expect(result.code).toBe(69);
      // Three records, each tried twice (--retries 1); the other two are left to the resume.
      expect(platform.received).toHaveLength(6);
      expect(platform.received.every((received) => received.startsWith(request))).toBe(true);
      const rows = readReport(join(folder, onlyReport(folder, file.replace('.csv', ''))));
      expect(rows.map((row) => `${row.outcome} ${row.status}`)).toEqual(Array(3).fill('unknown 502'));
      expect(rows[0]?.message).toContain('was answered HTTP 502 with an HTML page ("502 Bad Gateway") by a proxy');
      expect(result.stderr).toMatch(
        new RegExp(
          `Stopped after 3 failed requests in a row; when the platform is back, run: \\S* ?b2bctl ${argv.slice(0, 3).join(' ')} .*--resume \\S+\\.report-\\S+\\.csv\\n`,
        ),
      );
      expect(result.stderr).toContain(`${name}: 3 unknown, 2 not sent; 6 requests, 3 retries`);
    },
  );
});
