import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SalesRep } from '../../../src/domain/sales-rep.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, cachedToken, freshConfigDir, login, runCli } from '../../support/cli.js';
import { listingRoute, requestCounts, resetCounts, seedReps, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});
beforeEach(async () => {
  configDir = freshConfigDir();
  await login(sandbox, configDir);
  await resetCounts(sandbox);
});

const list = (...args: string[]) => runCli(['sellers', 'list', ...args], { configDir });

/** The trace lines of the listing requests, from a --verbose run. */
const listingRequests = (stderr: string) =>
  stderr.split('\n').filter((line) => line.startsWith(`> GET ${sandbox.url}/sellerModule/listSellers`));

describe('sellers list: the listing rules', () => {
  it('has 64 sales reps in the seed, as the paging tests below assume', () => {
    expect(seedReps).toHaveLength(64);
  });

  it('returns the platform default page of 20, as json when piped', async () => {
    const result = await list();
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 20)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('--limit 5 --offset 10 returns records 10 to 14 in seed order', async () => {
    const result = await list('--limit', '5', '--offset', '10', '--verbose');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(10, 15)));
    expect(listingRequests(result.stderr)).toEqual([`> GET ${sandbox.url}/sellerModule/listSellers?limit=5&offset=10`]);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('--email is partial and case-insensitive: SILVA matches lowercase silva', async () => {
    const result = await list('--email', 'SILVA');
    expect(result.code).toBe(0);
    const got = JSON.parse(result.stdout) as SalesRep[];
    expect(got.map((rep) => rep.username)).toEqual([
      'eduarda.silva@b2b.example.com',
      'lucas.silva@distribuidorasul.com.br',
    ]);
    expect(result.stdout).toBe(asJson(seedReps.filter((rep) => rep.username.toLowerCase().includes('silva'))));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('--email in lower case matches e-mails stored in upper case', async () => {
    const result = await list('--email', 'representacoes.com', '--limit', '100');
    expect(result.code).toBe(0);
    const expected = seedReps.filter((rep) => rep.username.toLowerCase().includes('representacoes.com'));
    expect(expected.some((rep) => rep.username !== rep.username.toLowerCase())).toBe(true);
    expect(result.stdout).toBe(asJson(expected));
  });

  it('--email with --limit and --offset pages within the matches', async () => {
    const matches = seedReps.filter((rep) => rep.username.toLowerCase().includes('.com.br'));
    expect(matches.length).toBeGreaterThan(4);
    const result = await list('--email', '.COM.BR', '--limit', '2', '--offset', '2');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(matches.slice(2, 4)));
  });

  it('an offset past the end prints [] and exits 0', async () => {
    for (const offset of ['64', '1000']) {
      const result = await list('--offset', offset);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('[]\n');
      expect(result.stderr).toBe('');
    }
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
  });

  it('no match prints [] in json and exits 0', async () => {
    const result = await list('--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[]\n');
    expect(result.stderr).toBe('');
  });

  it('an empty table prints the header line only, and one note on stderr', async () => {
    const result = await list('--email', 'nobody-at-all', '-o', 'table');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('EMAIL  DOCUMENT  CODE  PROFILE  RESTRICTED  PERMISSIONS\n');
    expect(result.stderr).toBe('No sales reps found with an e-mail containing "nobody-at-all".\n');
  });

  it('an empty table past the end names the offset in its note', async () => {
    const result = await list('--offset', '70', '-o', 'table');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('EMAIL  DOCUMENT  CODE  PROFILE  RESTRICTED  PERMISSIONS\n');
    expect(result.stderr).toBe('No sales reps found from offset 70.\n');
  });

  it('--all --limit 20 walks 4 pages and the final empty page: 5 requests, all 64 in seed order', async () => {
    const result = await list('--all', '--limit', '20', '--verbose');
    expect(result.code).toBe(0);
    const got = JSON.parse(result.stdout) as SalesRep[];
    expect(got).toHaveLength(64);
    expect(result.stdout).toBe(asJson(seedReps));
    expect(listingRequests(result.stderr)).toEqual(
      [0, 20, 40, 60, 64].map((offset) => `> GET ${sandbox.url}/sellerModule/listSellers?limit=20&offset=${offset}`),
    );
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 5 });
  });

  it('--all without --limit asks for one page of 500, then the empty page', async () => {
    const result = await list('--all', '--verbose');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps));
    expect(listingRequests(result.stderr)).toEqual([
      `> GET ${sandbox.url}/sellerModule/listSellers?limit=500&offset=0`,
      `> GET ${sandbox.url}/sellerModule/listSellers?limit=500&offset=64`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
  });

  it('--all starts at --offset', async () => {
    const result = await list('--all', '--limit', '20', '--offset', '10');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(10)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 4 });
  });

  it('--all with --email merges the matching pages only', async () => {
    const matches = seedReps.filter((rep) => rep.username.toLowerCase().includes('.com.br'));
    const result = await list('--all', '--email', '.com.br', '--limit', '3');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(matches));
    // Pages of 3 until the platform answers [], even after a short page.
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: Math.ceil(matches.length / 3) + 1 });
  });

  it('--all with nothing to list prints [] after one request', async () => {
    const result = await list('--all', '--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[]\n');
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });
});

// ---- Expected renderings, written from the output rules (README "List sales reps"), not from src/.

const permissionLetters: readonly [keyof SalesRep, string][] = [
  ['enabledFreight', 'F'],
  ['enabledInsertFreight', 'I'],
  ['enabledCustomerRegistration', 'R'],
  ['enableDiscountItemValue', 'D'],
  ['enableAddItemValue', 'A'],
  ['enableDiscountBranch', 'B'],
  ['enableDiscountFranchise', 'N'],
  ['enableDiscountSeller', 'S'],
  ['enableCoupon', 'C'],
  ['enableChatSupport', 'H'],
  ['enableRestrictedGroupsAttendant', 'G'],
];

function expectedTable(reps: readonly SalesRep[]): string {
  const headers = ['EMAIL', 'DOCUMENT', 'CODE', 'PROFILE', 'RESTRICTED', 'PERMISSIONS'];
  const rows = reps.map((rep) => [
    rep.username,
    rep.document,
    rep.attendantCode === '' ? '-' : rep.attendantCode,
    rep.profile?.name ?? '-',
    rep.restrictedCustomers ? 'yes' : 'no',
    permissionLetters.map(([flag, letter]) => (rep[flag] === true ? letter : '-')).join(''),
  ]);
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `${cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd()}\n`;
  return [headers, ...rows].map(line).join('');
}

const csvColumns = [
  'id',
  'username',
  'document',
  'restrictedCustomers',
  'enabledFreight',
  'enabledInsertFreight',
  'enabledCustomerRegistration',
  'enableDiscountItemValue',
  'enableAddItemValue',
  'enableDiscountBranch',
  'enableDiscountFranchise',
  'enableDiscountSeller',
  'enableCoupon',
  'enableChatSupport',
  'enableRestrictedCustomers',
  'enableRestrictedGroupsAttendant',
  'attendantCode',
  'allowedSellersId',
  'profile.id',
  'profile.code',
  'profile.name',
  'createdAt',
  'updatedAt',
] as const;

function csvCell(rep: SalesRep, column: (typeof csvColumns)[number]): string {
  let text: string;
  if (column === 'allowedSellersId') text = rep.allowedSellersId.join('|');
  else if (column.startsWith('profile.')) {
    const inner = rep.profile?.[column.slice('profile.'.length) as 'id' | 'code' | 'name'];
    text = inner === undefined || inner === null ? '' : String(inner);
  } else text = String(rep[column as keyof SalesRep]);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

function expectedCsv(reps: readonly SalesRep[]): string {
  return [csvColumns.join(','), ...reps.map((rep) => csvColumns.map((column) => csvCell(rep, column)).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
}

describe('sellers list: output formats byte for byte', () => {
  it('json is JSON.stringify(records, null, 2) plus a newline, the platform objects unchanged', async () => {
    const result = await list('-o', 'json', '--limit', '64');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(seedReps, null, 2)}\n`);
    // Unchanged: the very objects the platform answered, in the platform's key order.
    const direct = (await (
      await fetch(`${sandbox.url}/sellerModule/listSellers?limit=64`, {
        headers: { authorization: `Bearer ${cachedToken(configDir)}` },
      })
    ).json()) as unknown;
    expect(result.stdout).toBe(asJson(direct));
  });

  it('ndjson is one compact object per line', async () => {
    const result = await list('-o', 'ndjson', '--all', '--limit', '25');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(seedReps.map((rep) => `${JSON.stringify(rep)}\n`).join(''));
  });

  it('ndjson of nothing is empty', async () => {
    const result = await list('-o', 'ndjson', '--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('csv has the header, CRLF line ends, profile.* columns and allowedSellersId joined with |', async () => {
    const result = await list('-o', 'csv', '--all');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.startsWith('id,username,document,restrictedCustomers,enabledFreight,')).toBe(true);
    expect(result.stdout).toBe(expectedCsv(seedReps));
    // Spot checks of the rules on real rows.
    const lines = result.stdout.split('\r\n');
    expect(lines).toHaveLength(64 + 2);
    expect(lines.at(-1)).toBe('');
    const withAllowed = seedReps.findIndex((rep) => rep.allowedSellersId.length > 1);
    const withoutProfile = seedReps.findIndex((rep) => rep.profile === null);
    expect(lines[withAllowed + 1]).toContain(`,${seedReps[withAllowed]?.allowedSellersId.join('|')},`);
    expect(lines[withoutProfile + 1]).toContain(`,,,,${seedReps[withoutProfile]?.createdAt},`);
  });

  it('csv of nothing is the header line alone', async () => {
    const result = await list('-o', 'csv', '--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${csvColumns.join(',')}\r\n`);
  });

  it('table has EMAIL DOCUMENT CODE PROFILE RESTRICTED PERMISSIONS, and no note when not on a terminal', async () => {
    const result = await list('-o', 'table', '--all');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(expectedTable(seedReps));
    const lines = result.stdout.split('\n');
    expect(lines[0]?.split(/\s+/)).toEqual(['EMAIL', 'DOCUMENT', 'CODE', 'PROFILE', 'RESTRICTED', 'PERMISSIONS']);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('table of one page', async () => {
    const result = await list('-o', 'table', '--limit', '3', '--offset', '7');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(expectedTable(seedReps.slice(7, 10)));
  });
});
