/**
 * orders poll of an order that shows no number (`orderId`), from a real HTTP server: the CSV and the table leave the
 * number empty, as json says null, and `--out-dir` names its file by the id and the instant with the number's place
 * empty; never the id given as the number, which an ERP keeping `orderId` would store as one the store never gave.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { renderedScreen } from '../../support/rendered-screen.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;
const [noNumberAt, numberedAt] = [iso(since + 60_000), iso(since + 120_000)];

const orders = [
  {
    id: 8005,
    status: 'AWAITING_PAYMENT',
    dateCreated: noNumberAt,
    lastUpdated: noNumberAt,
    partnerCompanyName: 'Sem número',
  },
  {
    id: 8006,
    orderId: 108006,
    status: 'AWAITING_PAYMENT',
    dateCreated: numberedAt,
    lastUpdated: numberedAt,
    partnerCompanyName: 'Com número',
  },
];

/** The listing: both orders on the first page, none after it; the paths it was asked, in order. */
function useListing(): string[] {
  const asked: string[] = [];
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    asked.push(request.url ?? '');
    const offset = Number(new URL(request.url ?? '/', platform.url).searchParams.get('offset'));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(orders.slice(offset)));
  };
  return asked;
}

function poll(args: string[], terminal?: { columns: number }) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['orders', 'poll', '--since', iso(since), '--until', iso(until), ...args], {
    configDir: freshConfigDir(),
    env,
    ...(terminal ? { tty: { stdout: true, stderr: true }, columns: terminal.columns } : {}),
  });
}

const countLine = `orders poll: 2 new order versions updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`;

describe('orders poll, an order that shows no number', () => {
  it('-o csv: the orderId column is empty for it, as -o json says null', async () => {
    useListing();
    const result = await poll(['-o', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split(/\r?\n/)).toEqual([
      'id,orderId,status,approvalWorkflow,workflowIsApproved,dateCreated,lastUpdated,partnerCompanyName,partnerDocument',
      `8005,,AWAITING_PAYMENT,,,${noNumberAt},${iso(Date.parse(noNumberAt))},Sem número,`,
      `8006,108006,AWAITING_PAYMENT,,,${numberedAt},${iso(Date.parse(numberedAt))},Com número,`,
    ]);
    expect(result.stderr.trimEnd()).toBe(countLine);
  });

  it('the table: its ORDER cell is empty', async () => {
    useListing();
    const result = await poll([], { columns: 160 });
    expect(result.code).toBe(0);
    const screen = await renderedScreen(result.stdout, 160);
    expect(screen.map((line) => line.split(/ {2,}/))).toEqual([
      ['ID', 'ORDER', 'STATUS', 'CREATED', 'UPDATED', 'CUSTOMER'],
      ['8005', 'AWAITING_PAYMENT', noNumberAt, iso(Date.parse(noNumberAt)), 'Sem número'],
      ['8006', '108006', 'AWAITING_PAYMENT', numberedAt, iso(Date.parse(numberedAt)), 'Com número'],
    ]);
    // The number's column is there and empty on the first row: its status starts where the other's does.
    expect(screen[1]?.indexOf('AWAITING_PAYMENT')).toBe(screen[2]?.indexOf('AWAITING_PAYMENT'));
  });

  it('--out-dir: the file is named by the id and the instant, the number’s place empty', async () => {
    useListing();
    const folder = join(temporaryFolder('b2bctl-poll-number-'), 'orders');
    const result = await poll(['--out-dir', folder]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(readdirSync(folder).toSorted()).toEqual([
      `8005--${noNumberAt.replace(/[-:.]/g, '')}.json`,
      `8006-108006-${numberedAt.replace(/[-:.]/g, '')}.json`,
    ]);
    expect(result.stderr.trimEnd()).toBe(countLine);
  });
});
