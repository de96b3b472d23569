/**
 * `sellers list` in process against the sandbox: the listing rules (paging, --email, --all) and every output
 * format byte for byte, with stdout a terminal or not. Moved from test/e2e/sellers/list.test.ts, which keeps
 * the runs only a process shows; the command lines are argv, parsed by the program's own parser (runCommandLine).
 */
import { describe, expect, it } from 'vitest';
import type { SalesRep } from '../../../src/domain/sales-rep.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { asJson, cachedToken, freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { listingRoute, requestCounts, resetCounts, salesRepKeys, seedReps, useSandbox } from '../../support/sandbox.js';
import { scheduleFault } from '../../support/api-sandbox.js';

const fixture = useSandbox();
let sandbox: RunningSandbox;
let configDir: string;

/** Runs `sellers list ARGS` in process with stdout piped (or a terminal), as the built CLI would. */
async function list(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return listOn({ stdoutTTY: false }, ...args);
}

/** `b2bctl sellers list ARGS`, parsed by the program's own parser, with stdout a terminal or not, and `env` added. */
async function listOn(
  { stdoutTTY, env }: { stdoutTTY: boolean; env?: Record<string, string> },
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const current = fixture();
  sandbox = current.sandbox;
  // The fixture's clock: the login's token was issued on it.
  const { code, stdout, stderr } = await runCommandLine(['sellers', 'list', ...args], {
    configDir,
    env,
    clock: current.clock,
    tty: { stdout: stdoutTTY },
  });
  return { code: code as number, stdout, stderr };
}

/** A fresh login for each test, and no request counted before the command's own. */
async function loggedIn(): Promise<void> {
  const current = fixture();
  configDir = (await current.loggedInContext()).configDir;
  await resetCounts(current.sandbox);
  sandbox = current.sandbox;
}

/** The trace lines of the listing requests, from a --verbose run. */
const listingRequests = (stderr: string) =>
  stderr.split('\n').filter((line) => line.startsWith(`> GET ${sandbox.url}/sellerModule/listSellers`));

describe('sellers list: the listing rules', () => {
  it('has 64 sales reps in the seed, as the paging tests below assume', () => {
    expect(seedReps).toHaveLength(64);
  });

  it('returns the platform default page of 20, as json when piped, and says on stderr that there may be more', async () => {
    await loggedIn();
    const result = await list();
    expect(result.code).toBe(0);
    // A full page of the default size, piped to jq, would pass for the whole store.
    expect(result.stderr).toBe('First 20 sales reps; --all for every page.\n');
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 20)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  // A store whose default page is 50 answered 50 reps to a request without `limit`, told as the whole store (a user test).
  it("without --limit sends limit=20, the page size it assumes, not the store's own default", async () => {
    await loggedIn();
    const result = await list('--verbose');
    expect(result.code).toBe(0);
    expect(listingRequests(result.stderr)).toEqual([`> GET ${sandbox.url}/sellerModule/listSellers?limit=20`]);
    expect(result.stdout).toBe(asJson(seedReps.slice(0, 20)));
  });

  it('a store answering more reps than the limit sent (it ignores it): said to be a first page, not the store', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const ignoringLimit = [...stored];
    // Fifty reps whatever the limit asked, as a store with its own page size does.
    ignoringLimit.slice = function (this: SalesRep[], start?: number) {
      return Array.prototype.slice.call(this, start, (start ?? 0) + 50) as SalesRep[];
    };
    sandbox.state.sellers = ignoringLimit;
    try {
      const result = await list('-o', 'ndjson');
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(50);
      expect(result.stderr).toBe('First 50 sales reps; --all for every page.\n');
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it('--limit 5 --offset 10 returns records 10 to 14 in seed order', async () => {
    await loggedIn();
    const result = await list('--limit', '5', '--offset', '10', '--verbose');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(10, 15)));
    expect(listingRequests(result.stderr)).toEqual([`> GET ${sandbox.url}/sellerModule/listSellers?limit=5&offset=10`]);
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('--email is partial and case-insensitive: SILVA matches lowercase silva', async () => {
    await loggedIn();
    const result = await list('--email', 'SILVA');
    expect(result.code).toBe(0);
    const got = JSON.parse(result.stdout) as SalesRep[];
    expect(got.map((rep) => rep.username)).toEqual([
      'eduarda.silva@b2b.example.com',
      'lucas.silva@distribuidorasul.com.br',
    ]);
    expect(result.stdout).toBe(asJson(seedReps.filter((rep) => rep.username.toLowerCase().includes('silva'))));
    // A page shorter than the limit sent: the next one is asked, to say whether the listing ended.
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
  });

  it('--email in lower case matches e-mails stored in upper case', async () => {
    await loggedIn();
    const result = await list('--email', 'representacoes.com', '--limit', '100');
    expect(result.code).toBe(0);
    const expected = seedReps.filter((rep) => rep.username.toLowerCase().includes('representacoes.com'));
    expect(expected.some((rep) => rep.username !== rep.username.toLowerCase())).toBe(true);
    expect(result.stdout).toBe(asJson(expected));
  });

  it('--email with --limit and --offset pages within the matches', async () => {
    await loggedIn();
    const matches = seedReps.filter((rep) => rep.username.toLowerCase().includes('.com.br'));
    expect(matches.length).toBeGreaterThan(4);
    const result = await list('--email', '.COM.BR', '--limit', '2', '--offset', '2');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(matches.slice(2, 4)));
  });

  it('an offset past the end prints [] and exits 0', async () => {
    await loggedIn();
    for (const offset of ['64', '1000']) {
      const result = await list('--offset', offset);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('[]\n');
      expect(result.stderr).toBe('');
    }
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
  });

  it('no match prints [] in json and exits 0', async () => {
    await loggedIn();
    const result = await list('--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[]\n');
    expect(result.stderr).toBe('');
  });

  it('an empty table prints the header line only, and one note on stderr', async () => {
    await loggedIn();
    const result = await list('--email', 'nobody-at-all', '-o', 'table');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('EMAIL  DOCUMENT  CODE  PROFILE  RESTRICTED  PERMISSIONS\n');
    expect(result.stderr).toBe('No sales reps found with an e-mail containing "nobody-at-all".\n');
  });

  it('an empty table past the end names the offset in its note', async () => {
    await loggedIn();
    const result = await list('--offset', '70', '-o', 'table');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('EMAIL  DOCUMENT  CODE  PROFILE  RESTRICTED  PERMISSIONS\n');
    expect(result.stderr).toBe('No sales reps found from offset 70.\n');
  });

  it('--all --limit 20 walks 4 pages and the final empty page: 5 requests, all 64 in seed order', async () => {
    await loggedIn();
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
    await loggedIn();
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
    await loggedIn();
    const result = await list('--all', '--limit', '20', '--offset', '10');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(seedReps.slice(10)));
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 4 });
  });

  it('--all with --email merges the matching pages only', async () => {
    await loggedIn();
    const matches = seedReps.filter((rep) => rep.username.toLowerCase().includes('.com.br'));
    const result = await list('--all', '--email', '.com.br', '--limit', '3');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(asJson(matches));
    // Pages of 3 until the platform answers [], even after a short page.
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: Math.ceil(matches.length / 3) + 1 });
  });

  it('--all whose third page fails: exit 69, and stdout is still JSON (the pages before, the array closed)', async () => {
    await loggedIn();
    await scheduleFault(sandbox, '/sellerModule/listSellers', 3, 503);
    const result = await listOn(
      { stdoutTTY: false, env: { B2BCTL_RETRIES: '0' } },
      '--all',
      '--limit',
      '10',
      '-o',
      'json',
    );
    expect(result.code).toBe(69);
    const read = JSON.parse(result.stdout) as SalesRep[];
    expect(read.length).toBe(20);
    // A failure before any rep was written leaves stdout empty, not an empty list that reads as "no reps".
    await scheduleFault(sandbox, '/sellerModule/listSellers', 1, 503);
    const first = await listOn(
      { stdoutTTY: false, env: { B2BCTL_RETRIES: '0' } },
      '--all',
      '--limit',
      '10',
      '-o',
      'json',
    );
    expect([first.code, first.stdout]).toEqual([69, '']);
  });

  it('--all over a listing that shifts between pages writes each rep once, and says so on stderr once', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const shifting = [...stored];
    const newcomer = {
      ...(seedReps[0] as SalesRep),
      id: '00000000-0000-4000-8000-0000000000aa',
      username: 'new@x.com',
    };
    let pagesServed = 0;
    // A rep created at the head of the listing after the first page: every later page starts one rep earlier.
    shifting.slice = function (this: SalesRep[], start?: number, end?: number) {
      const page = Array.prototype.slice.call(this, start, end) as SalesRep[];
      if (pagesServed++ === 0) this.unshift(newcomer);
      return page;
    };
    sandbox.state.sellers = shifting;
    try {
      const result = await list('--all', '--limit', '20', '--verbose');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(asJson(seedReps));
      expect(result.stderr.split('\n').filter((line) => !line.startsWith('> ') && !line.startsWith('< '))).toEqual([
        'warning: the sales rep listing changed while it was read (1 sales rep seen twice, each written once): a rep added or removed meanwhile may be missing; run it again for a settled list.',
        '',
      ]);
      expect(listingRequests(result.stderr)).toEqual(
        [0, 20, 40, 60, 65].map((offset) => `> GET ${sandbox.url}/sellerModule/listSellers?limit=20&offset=${offset}`),
      );
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  // Every rep written is remembered (src/lib/written-record-keys.ts): a shift past a whole page is still caught.
  it('--all over a listing shifted by more than a page: each rep once, the reps of two pages back skipped too', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const shifting = [...stored];
    const newcomers = Array.from({ length: 7 }, (_, index) => ({
      ...(seedReps[0] as SalesRep),
      id: `00000000-0000-4000-8000-0000000001${String(index).padStart(2, '0')}`,
      username: `new${index}@x.com`,
    }));
    let pagesServed = 0;
    // Seven reps created at the head after the second page of 5: the third page starts with the first page's 4th rep.
    shifting.slice = function (this: SalesRep[], start?: number, end?: number) {
      const page = Array.prototype.slice.call(this, start, end) as SalesRep[];
      if (++pagesServed === 2) this.unshift(...newcomers);
      return page;
    };
    sandbox.state.sellers = shifting;
    try {
      const result = await list('--all', '--limit', '5');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(asJson(seedReps));
      expect(result.stderr).toBe(
        'warning: the sales rep listing changed while it was read (7 sales reps seen twice, each written once): a rep added or removed meanwhile may be missing; run it again for a settled list.\n',
      );
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  // Pages of one rep and three reps created before the third page: a memory of the last 3 pages (3 ids) wrote the
  // first two reps again, exit 0, no word (a user test). Every rep written is remembered now.
  it('--all --limit 1 over a listing that three reps join at its head once: each rep once, with the warning', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const shifting = [...stored];
    const newcomers = Array.from({ length: 3 }, (_, index) => ({
      ...(seedReps[0] as SalesRep),
      id: `00000000-0000-4000-8000-0000000002${String(index).padStart(2, '0')}`,
      username: `joined${index}@x.com`,
    }));
    let pagesServed = 0;
    shifting.slice = function (this: SalesRep[], start?: number, end?: number) {
      if (++pagesServed === 3) this.unshift(...newcomers);
      return Array.prototype.slice.call(this, start, end) as SalesRep[];
    };
    sandbox.state.sellers = shifting;
    try {
      const result = await list('--all', '--limit', '1', '-o', 'ndjson');
      expect(result.code).toBe(0);
      const ids = result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as SalesRep).id);
      expect(ids).toEqual([
        seedReps[0]?.id,
        seedReps[1]?.id,
        newcomers[2]?.id,
        ...seedReps.slice(2).map((rep) => rep.id),
      ]);
      expect(result.stderr).toBe(
        'warning: the sales rep listing changed while it was read (2 sales reps seen twice, each written once): a rep added or removed meanwhile may be missing; run it again for a settled list.\n',
      );
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it('--all over a listing that grows before every page: each rep once, stopped as outrun, not as ignoring the offset', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const growing = [...stored];
    const newcomer = {
      ...(seedReps[0] as SalesRep),
      id: '00000000-0000-4000-8000-0000000000aa',
      username: 'new@x.com',
    };
    // A rep created at the head of the listing after every page: the last rep is chased down one place a request.
    growing.slice = function (this: SalesRep[], start?: number, end?: number) {
      const page = Array.prototype.slice.call(this, start, end) as SalesRep[];
      this.unshift(newcomer);
      return page;
    };
    sandbox.state.sellers = growing;
    try {
      const result = await list('--all', '--limit', '20');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(asJson(seedReps));
      expect(result.stderr.split('\n')).toEqual([
        `error: GET ${sandbox.url}/sellerModule/listSellers?limit=20&offset=72 answered the page of offset 67 again, 5 times in a row: sales reps are added at the head of the listing as fast as it is read (each answer found that page moved down as far as the read moved on); stopped instead of chasing it (every one of the sales reps read was written once; sales reps added meanwhile are not in this read). Run it again when the store is quieter.`,
        '',
      ]);
      expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 10 });
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it('--all over a page holding two reps that share an id (one per store): both written, exit 0, no warning', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const [ana, other] = seedReps as [SalesRep, SalesRep];
    const sharing = [
      { ...ana, id: 's1', username: 'ana@loja-a.com' },
      { ...ana, id: 's1', username: 'ana@loja-b.com' },
      { ...other, id: 's2' },
    ];
    sandbox.state.sellers = sharing;
    try {
      const result = await list('--all', '--limit', '20');
      expect([result.code, result.stderr]).toEqual([0, '']);
      expect(result.stdout).toBe(asJson(sharing));
      expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it('--all: a rep whose id an earlier page wrote with another record is written too, not lost', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const [ana, other] = seedReps as [SalesRep, SalesRep];
    const reps = [
      { ...ana, id: 's1', username: 'ana@loja-a.com' },
      { ...other, id: 's2' },
      { ...ana, id: 's1', username: 'ana@loja-b.com' },
    ];
    sandbox.state.sellers = reps;
    try {
      const result = await list('--all', '--limit', '2');
      expect([result.code, result.stderr]).toEqual([0, '']);
      expect(result.stdout).toBe(asJson(reps));
      expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 3 });
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it('--all over a route that answers its last page again past the end: stops at the first repeat, exit 0, a warning', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const clamping = [...stored];
    // An offset past the end is read as the last page's (60 for pages of 20 over 64 reps), as a clamping store does.
    clamping.slice = function (this: SalesRep[], start?: number, end?: number) {
      const size = (end ?? this.length) - (start ?? 0);
      const lastStart = Math.floor((this.length - 1) / size) * size;
      return Array.prototype.slice.call(this, Math.min(start ?? 0, lastStart), end) as SalesRep[];
    };
    sandbox.state.sellers = clamping;
    try {
      const result = await list('--all', '--limit', '20', '--verbose');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(asJson(seedReps));
      expect(listingRequests(result.stderr)).toEqual(
        [0, 20, 40, 60, 64].map((offset) => `> GET ${sandbox.url}/sellerModule/listSellers?limit=20&offset=${offset}`),
      );
      expect(result.stderr.split('\n').filter((line) => !line.startsWith('> ') && !line.startsWith('< '))).toEqual([
        `warning: GET ${sandbox.url}/sellerModule/listSellers?limit=20&offset=64 answered the page of offset 60 again (the same 4 sales reps, in the same order), as a route that answers its last page past the end of the listing does instead of an empty page: read as the end (every one of the sales reps answered was written once).`,
        '',
      ]);
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it('--all keeps reps without an id as they are: nothing to tell them apart by', async () => {
    await loggedIn();
    const stored = sandbox.state.sellers;
    const anonymous = { ...(seedReps[0] as SalesRep), id: undefined as unknown as string };
    sandbox.state.sellers = [anonymous, anonymous];
    try {
      const result = await list('--all', '--limit', '1');
      expect([result.code, result.stderr]).toEqual([0, '']);
      expect(JSON.parse(result.stdout)).toHaveLength(2);
      expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 3 });
    } finally {
      sandbox.state.sellers = stored;
    }
  });

  it.each([
    ['a page of 20', '20', 2],
    ['a page of one rep, answered again five times in a row', '1', 6],
  ])(
    '--all over a route that ignores the offset, %s: stops, exit 1, the reps written once',
    async (_, limit, requests) => {
      await loggedIn();
      const stored = sandbox.state.sellers;
      const stuck = [...stored];
      // Every page is the listing's first, whatever the offset asked.
      stuck.slice = function (this: SalesRep[], start?: number, end?: number) {
        return Array.prototype.slice.call(this, 0, (end ?? this.length) - (start ?? 0)) as SalesRep[];
      };
      sandbox.state.sellers = stuck;
      try {
        const result = await list('--all', '--limit', limit);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe(asJson(seedReps.slice(0, Number(limit))));
        const last = Number(limit) * (requests - 1);
        expect(result.stderr.split('\n')).toEqual([
          `error: GET ${sandbox.url}/sellerModule/listSellers?limit=${limit}&offset=${last} answered the same page as offset 0: the route does not seem to page by offset; stopped instead of looping (the sales reps of offset 0 were written once).`,
          '',
        ]);
        expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: requests });
      } finally {
        sandbox.state.sellers = stored;
      }
    },
  );

  it('--all with nothing to list prints [] after one request', async () => {
    await loggedIn();
    const result = await list('--all', '--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('[]\n');
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });
});

/**
 * The sandbox's listing made to ignore the `email` filter, as a gateway that drops the query or a store that names
 * the parameter otherwise does: every rep is listed, paged by limit and offset all the same. Undone by `restore`.
 */
function ignoreEmailFilter(reps: SalesRep[] = sandbox.state.sellers): { restore: () => void } {
  const stored = sandbox.state.sellers;
  const unfiltered = [...reps];
  unfiltered.filter = function (this: SalesRep[]) {
    return Array.prototype.slice.call(this) as SalesRep[];
  } as SalesRep[]['filter'];
  sandbox.state.sellers = unfiltered;
  return { restore: () => (sandbox.state.sellers = stored) };
}

const containsSilva = (rep: SalesRep) => rep.username.toLowerCase().includes('silva');

describe('sellers list --email on a platform that ignores the filter', () => {
  it('one page: only the reps of the page whose e-mail contains the text, a warning that names --all, exit 0', async () => {
    await loggedIn();
    const platform = ignoreEmailFilter();
    try {
      const result = await list('--email', 'SILVA', '--verbose');
      expect(result.code).toBe(0);
      const kept = seedReps.slice(0, 20).filter(containsSilva);
      expect(result.stdout).toBe(asJson(kept));
      // The filter was sent: it is the platform that did not apply it.
      expect(listingRequests(result.stderr)).toEqual([
        `> GET ${sandbox.url}/sellerModule/listSellers?limit=20&email=SILVA`,
      ]);
      expect(result.stderr.split('\n').filter((line) => !line.startsWith('> ') && !line.startsWith('< '))).toEqual([
        `warning: the platform listed ${20 - kept.length} sales reps whose e-mail does not contain "SILVA" though --email was sent: it did not filter its listing by e-mail, so b2bctl left them out itself. Reps whose e-mail contains it may be on the pages after this one: --all reads every page.`,
        '',
      ]);
    } finally {
      platform.restore();
    }
  });

  it('a page of none that match prints [] and the warning, not "First 0 sales reps"', async () => {
    await loggedIn();
    const platform = ignoreEmailFilter(seedReps.filter((rep) => !containsSilva(rep)));
    try {
      const result = await list('--email', 'silva', '--limit', '5');
      expect([result.code, result.stdout]).toEqual([0, '[]\n']);
      expect(result.stderr).toBe(
        'warning: the platform listed 5 sales reps whose e-mail does not contain "silva" though --email was sent: it did not filter its listing by e-mail, so b2bctl left them out itself. Reps whose e-mail contains it may be on the pages after this one: --all reads every page.\n',
      );
    } finally {
      platform.restore();
    }
  });

  it.each([
    ['json', (reps: SalesRep[]) => asJson(reps)],
    ['csv', (reps: SalesRep[]) => expectedCsv(reps)],
  ])('--all -o %s: every matching rep of every page, and the warning once', async (format, expected) => {
    await loggedIn();
    const platform = ignoreEmailFilter();
    try {
      const result = await list('--all', '--email', 'silva', '--limit', '20', '-o', format);
      expect(result.code).toBe(0);
      const kept = seedReps.filter(containsSilva);
      expect(kept).toHaveLength(2);
      expect(result.stdout).toBe(expected(kept));
      expect(result.stderr).toBe(
        `warning: the platform listed ${seedReps.length - kept.length} sales reps whose e-mail does not contain "silva" though --email was sent: it did not filter its listing by e-mail, so b2bctl left them out itself.\n`,
      );
      // Every page read, with the filter sent on each, until the empty page.
      expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 5 });
    } finally {
      platform.restore();
    }
  });

  it('on a terminal: the table of the matches, the count of what was written, and the warning', async () => {
    await loggedIn();
    const platform = ignoreEmailFilter();
    try {
      const result = await listOn({ stdoutTTY: true }, '--email', 'silva', '--all');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(expectedTable(seedReps.filter(containsSilva)));
      expect(result.stderr.split('\n').slice(0, 2)).toEqual([
        'warning: the platform listed 62 sales reps whose e-mail does not contain "silva" though --email was sent: it did not filter its listing by e-mail, so b2bctl left them out itself.',
        '2 sales reps.',
      ]);
    } finally {
      platform.restore();
    }
  });

  it('a rep that shows no e-mail is kept as the platform listed it, and said', async () => {
    await loggedIn();
    const anonymous = { ...(seedReps[0] as SalesRep), id: 'no-email', username: undefined as unknown as string };
    const silva = seedReps.find(containsSilva) as SalesRep;
    const platform = ignoreEmailFilter([anonymous, silva, seedReps[1] as SalesRep]);
    try {
      const result = await list('--email', 'silva');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(asJson([anonymous, silva]));
      expect(result.stderr.split('\n')).toEqual([
        // A page shorter than the limit sent, and the page after it empty: no reps follow it.
        'warning: the platform listed 1 sales rep whose e-mail does not contain "silva" though --email was sent: it did not filter its listing by e-mail, so b2bctl left them out itself.',
        'warning: 1 listed sales rep showed no e-mail, so --email could not be checked on it: it was written as the platform listed it for the e-mail asked.',
        '',
      ]);
    } finally {
      platform.restore();
    }
  });
});

// ---- Expected renderings, written from the output rules (docs/output.md, "Listing sales reps"), not from src/.

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

/** The CSV's columns: the listing's keys, with the profile spread over three columns. */
const csvColumns = salesRepKeys.flatMap((key) =>
  key === 'profile' ? ['profile.id', 'profile.code', 'profile.name'] : [key],
);

function csvCell(rep: SalesRep, column: string): string {
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
    await loggedIn();
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
    await loggedIn();
    const result = await list('-o', 'ndjson', '--all', '--limit', '25');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(seedReps.map((rep) => `${JSON.stringify(rep)}\n`).join(''));
  });

  it('ndjson of nothing is empty', async () => {
    await loggedIn();
    const result = await list('-o', 'ndjson', '--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('csv has the header, CRLF line ends, profile.* columns and allowedSellersId joined with |', async () => {
    await loggedIn();
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
    await loggedIn();
    const result = await list('-o', 'csv', '--email', 'nobody-at-all');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${csvColumns.join(',')}\r\n`);
  });

  it('table has EMAIL DOCUMENT CODE PROFILE RESTRICTED PERMISSIONS, and no note when not on a terminal', async () => {
    await loggedIn();
    const result = await list('-o', 'table', '--all');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(expectedTable(seedReps));
    const lines = result.stdout.split('\n');
    expect(lines[0]?.split(/\s+/)).toEqual(['EMAIL', 'DOCUMENT', 'CODE', 'PROFILE', 'RESTRICTED', 'PERMISSIONS']);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('table of one page', async () => {
    await loggedIn();
    const result = await list('-o', 'table', '--limit', '3', '--offset', '7');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(expectedTable(seedReps.slice(7, 10)));
  });
});

describe('sellers list: stdout a terminal or not', () => {
  it('on a terminal the default is the table, with a note of the count and the permission letters on stderr', async () => {
    await loggedIn();
    const result = await listOn({ stdoutTTY: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(expectedTable(seedReps.slice(0, 20)));
    expect(result.stderr).toMatch(
      /^First 20 sales reps; --all for every page\.\nPERMISSIONS: F [^,]+(, [A-Z] [^,]+){10}\.\n$/,
    );
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 1 });
  });

  it('on a terminal a page shorter than the limit whose next page is empty is the whole listing: "2 sales reps."', async () => {
    await loggedIn();
    const result = await listOn({ stdoutTTY: true }, '--email', 'silva');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^2 sales reps\.\nPERMISSIONS: /);
    // The page after the 2 (of the 20 sent) was asked once, and was the listing's documented end.
    expect(await requestCounts(sandbox)).toEqual({ [listingRoute]: 2 });
  });

  it('on a terminal one rep is "1 sales rep", and no match is the header and a note', async () => {
    await loggedIn();
    const one = await listOn({ stdoutTTY: true }, '--limit', '1');
    expect(one.stdout).toBe(expectedTable(seedReps.slice(0, 1)));
    expect(one.stderr).toMatch(/^First 1 sales rep; --all for every page\.\nPERMISSIONS: /);
    const none = await listOn({ stdoutTTY: true }, '--email', 'nobody-at-all');
    expect(none.stdout).toBe('EMAIL  DOCUMENT  CODE  PROFILE  RESTRICTED  PERMISSIONS\n');
    expect(none.stderr).toBe('No sales reps found with an e-mail containing "nobody-at-all".\n');
  });

  it.each([
    ['json', asJson(seedReps.slice(0, 3))],
    [
      'ndjson',
      seedReps
        .slice(0, 3)
        .map((rep) => `${JSON.stringify(rep)}\n`)
        .join(''),
    ],
  ])('-o %s on a terminal is the data and no note', async (format, expected) => {
    await loggedIn();
    const result = await listOn({ stdoutTTY: true }, '-o', format, '--limit', '3');
    expect(result).toEqual({ code: 0, stdout: expected, stderr: '' });
  });

  it.each(['json', 'ndjson', 'csv', 'table'])(
    'piped -o %s: a page of reps has the note on stderr, a short one the last of the listing and --all none',
    async (format) => {
      await loggedIn();
      const full = await list('-o', format);
      expect(full.code).toBe(0);
      expect(full.stderr).toBe('First 20 sales reps; --all for every page.\n');
      // 4 of the 20 asked, and the page after them empty: the listing ended there, nothing to re-run.
      expect((await list('-o', format, '--offset', '60')).stderr).toBe('');
      expect(await list('-o', format, '--all')).toMatchObject({ code: 0, stderr: '' });
      expect((await list('-o', format, '--offset', '20')).stderr).toBe(
        '20 sales reps from offset 20; --all for every page.\n',
      );
    },
  );

  it('piped with --limit, the default is json and -o ndjson is one object a line; neither has a note', async () => {
    await loggedIn();
    expect(await list('--limit', '2')).toEqual({ code: 0, stdout: asJson(seedReps.slice(0, 2)), stderr: '' });
    expect(await list('-o', 'ndjson', '--limit', '2')).toEqual({
      code: 0,
      stdout: seedReps
        .slice(0, 2)
        .map((rep) => `${JSON.stringify(rep)}\n`)
        .join(''),
      stderr: '',
    });
  });

  it('not logged in: exit 77 naming the fix, and nothing sent', async () => {
    const current = fixture();
    sandbox = current.sandbox;
    const result = await runCommandLine(['sellers', 'list', '--base-url', sandbox.url], {
      configDir: freshConfigDir(),
      clock: current.clock,
      tty: { stdout: true },
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(/^error: .*b2bctl login/m);
    expect(result.stdout).toBe('');
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
