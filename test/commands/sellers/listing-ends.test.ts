/**
 * What ends `sellers list` (a user test): only an empty page ends the listing. A page answered `null` (HTTP 200) is no
 * page, never the end, exit 69 as for the other answers that are no page; an answer with no body after reps were
 * read still ends it, as documented, with a warning that reps may be missing; two equal pages of reps without an id
 * are not taken for a route answering its last page again; and one page of a store that caps its pages below the
 * `limit` sent is not told as the store's whole count.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes } = platform;
afterAll(removeTemporaryFolders);

/** The `offset` of each listing request received, in order. */
const asked: number[] = [];

const rep = (index: number) => ({ id: `r${index}`, username: `rep${index}@loja.test`, document: '52998224725' });
/** Reps `from` to `to` (not included). */
const reps = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => rep(from + index));

/**
 * The listing of `all`, at most `cap` a page whatever the `limit` sent; the request at `odd.offset` answered with
 * `odd.status` and `odd.body` instead (an empty body when it is '').
 */
function listing(
  all: readonly unknown[],
  cap = Number.MAX_SAFE_INTEGER,
  odd?: { offset: number; status: number; body: string },
) {
  routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://x').searchParams;
    const offset = Number(query.get('offset') ?? 0);
    asked.push(offset);
    if (odd?.offset === offset) {
      response.writeHead(odd.status, odd.body === '' ? {} : { 'content-type': 'application/json' }).end(odd.body);
      return;
    }
    const limit = Math.min(Number(query.get('limit') ?? 20), cap);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(all.slice(offset, offset + limit)));
  };
}

function run(args: string[], tty = false) {
  asked.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['sellers', 'list', ...args], { configDir: freshConfigDir(), env, tty: { stdout: tty } });
}

const ndjson = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

describe('sellers list: a page answered null', () => {
  it('--all: null in mid-listing stops the read, exit 69, naming the page; the reps before it written, no more asked', async () => {
    listing(reps(0, 45), undefined, { offset: 20, status: 200, body: 'null' });
    const result = await run(['--all', '--limit', '10', '-o', 'ndjson']);
    expect(result.code).toBe(69);
    expect(ndjson(result.stdout)).toEqual(reps(0, 20));
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=10&offset=20 failed with HTTP 200: the answer is no page of sales reps (it is null, not a list): null\n`,
    );
    expect(asked).toEqual([0, 10, 20]);
  });

  it('--all -o json: the array of the reps before it is closed, exit 69', async () => {
    listing(reps(0, 45), undefined, { offset: 10, status: 200, body: 'null' });
    const result = await run(['--all', '--limit', '10', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(JSON.parse(result.stdout)).toEqual(reps(0, 10));
  });

  it.each([
    ['null', 'it is null, not a list'],
    ['false', 'it is false, not a list'],
    ['0', 'it is a number, not a list'],
  ])('one page answered %s prints no [] and no note: exit 69, one line', async (body, why) => {
    listing(reps(0, 45), undefined, { offset: 0, status: 200, body });
    const result = await run([]);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 failed with HTTP 200: the answer is no page of sales reps (${why}): ${body}\n`,
    );
  });
});

describe('sellers list --all: an answer with no body', () => {
  it.each([204, 200])(
    'HTTP %i with no body after pages of reps ends the read as documented, exit 0, with a warning that reps may be missing',
    async (status) => {
      listing(reps(0, 45), undefined, { offset: 20, status, body: '' });
      const result = await run(['--all', '--limit', '10', '-o', 'ndjson']);
      expect(result.code).toBe(0);
      expect(ndjson(result.stdout)).toEqual(reps(0, 20));
      expect(result.stderr).toBe(
        `warning: GET ${platform.url}/sellerModule/listSellers?limit=10&offset=20 answered HTTP ${status} with no body, read as the end of the listing as an empty page is; the platform document ends a listing with [] only, so if this route does too, this answer may be a failure that left out the sales reps from offset 20 on: run it again, or compare the count with the store's.\n`,
      );
    },
  );

  it('no body for the first page is an empty listing: [], no warning', async () => {
    listing(reps(0, 45), undefined, { offset: 0, status: 204, body: '' });
    const result = await run(['--all']);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, '[]\n', '']);
  });
});

const noId = (username: string) => ({ username, document: '52998224725' });

describe('sellers list --all: equal pages of reps without an id', () => {
  const [a, b, c, e, f] = ['a', 'b', 'c', 'e', 'f'].map((name) => noId(`${name}@loja.test`));
  const listed = [a, b, c, c, c, c, e, f];

  it('two equal pages in a row are read on, not taken for the end: every rep written, exit 0, no warning', async () => {
    listing(listed);
    const result = await run(['--all', '--limit', '2', '-o', 'ndjson']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(ndjson(result.stdout)).toEqual(listed);
    expect(asked).toEqual([0, 2, 4, 6, 8]);
  });

  it('the page answered again at the next two offsets stops the read, exit 1, naming it; nothing answered again written', async () => {
    // A route that answers its last page for every offset past the end, its reps without an id.
    routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? 0);
      asked.push(offset);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(offset === 0 ? [a, b] : [e, f]));
    };
    const result = await run(['--all', '--limit', '2', '-o', 'ndjson']);
    expect(result.code).toBe(1);
    expect(ndjson(result.stdout)).toEqual([a, b, e, f]);
    expect(asked).toEqual([0, 2, 4, 6]);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=2&offset=6 answered the page of offset 2 again at the next two offsets (the same 2 sales reps, in the same order, not each with an id): a route answering its last page past the end of the listing and equal sales reps in a row that b2bctl cannot tell apart give the same answers, so it cannot tell whether the listing goes on; stopped (every sales rep before offset 4 was written once, the pages answered again were not).\n`,
    );
  });
});

describe('sellers list: one page of a store that caps its pages', () => {
  it('on a terminal: 10 of 45 (the cap) is a first page, not "10 sales reps."', async () => {
    listing(reps(0, 45), 10);
    const result = await run([], true);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe('First 10 sales reps; --all for every page.');
    expect(result.stderr).not.toContain('10 sales reps.');
    // Shorter than the 20 sent: the page after it is asked, and holds reps.
    expect(asked).toEqual([0, 10]);
  });

  it('piped: the same note on stderr, stdout the 10 reps', async () => {
    listing(reps(0, 45), 10);
    const result = await run(['-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toEqual(reps(0, 10));
    expect(result.stderr).toBe('First 10 sales reps; --all for every page.\n');
  });

  it('from an offset: the note names it', async () => {
    listing(reps(0, 45), 10);
    const result = await run(['--offset', '30']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(reps(30, 40));
    expect(result.stderr).toBe('10 sales reps from offset 30; --all for every page.\n');
  });

  it('its last page (5 of the cap of 10, the page after it empty) is the end: no note piped, the count on a terminal', async () => {
    listing(reps(0, 45), 10);
    const piped = await run(['--offset', '40']);
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toEqual(reps(40, 45));
    expect(piped.stderr).toBe('');
    expect(asked).toEqual([40, 45]);
    const onTerminal = await run(['--offset', '40'], true);
    expect(onTerminal.stderr.split('\n')[0]).toBe('5 sales reps from offset 40.');
  });
});

describe('sellers list: the page after a short page', () => {
  it('is not asked when nothing printed depends on it: piped with --limit, no filter warning', async () => {
    listing(reps(0, 5));
    const result = await run(['--limit', '20', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toEqual(reps(0, 5));
    expect(result.stderr).toBe('');
    expect(asked).toEqual([0]);
  });

  it('is not asked for an empty table on a terminal ("No sales reps found")', async () => {
    listing([{ id: 'x', username: 'other@loja.test' }, ...reps(0, 2)]);
    const result = await run(['--email', 'nobody', '--limit', '20'], true);
    expect(result.code).toBe(0);
    // The platform's 3 were all someone else: the filter's warning asks after them, and the page after was the end.
    expect(result.stderr).toContain('b2bctl left them out itself.\n');
    expect(asked).toEqual([0, 3]);
    listing(reps(0, 0));
    const none = await run(['--limit', '20'], true);
    expect(none.stderr).toBe('No sales reps found.\n');
    expect(asked).toEqual([0]);
  });

  it('is asked piped with --limit when the e-mail filter warning tells of the pages after', async () => {
    listing(reps(0, 5), Number.MAX_SAFE_INTEGER, { offset: 5, status: 200, body: JSON.stringify(reps(5, 6)) });
    const result = await run(['--email', 'rep1@', '--limit', '20', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toEqual([rep(1)]);
    expect(result.stderr).toContain('--all reads every page.');
    expect(asked).toEqual([0, 5]);
  });

  it.each([401, 403])('answered HTTP %i: the refusal ends the run (exit 77), not the old footer', async (status) => {
    listing(reps(0, 5), Number.MAX_SAFE_INTEGER, { offset: 5, status, body: '{"message":"token revoked"}' });
    const result = await run(['-o', 'ndjson']);
    expect(result.code).toBe(77);
    expect(ndjson(result.stdout)).toEqual(reps(0, 5));
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(status === 401 ? /^error: Not logged in / : /^error: GET .* HTTP 403/);
    expect(asked).toEqual([0, 5]);
  });

  it('answered a refusal other than the credentials (HTTP 400): the footer stays, the reason said with --verbose', async () => {
    listing(reps(0, 5), Number.MAX_SAFE_INTEGER, { offset: 5, status: 400, body: '{"message":"offset too large"}' });
    const result = await run(['-o', 'ndjson', '--verbose']);
    expect(result.code).toBe(0);
    expect(ndjson(result.stdout)).toEqual(reps(0, 5));
    expect(result.stderr).toContain('First 5 sales reps; --all for every page.');
    expect(result.stderr).toMatch(/the page after the short page could not be read.*HTTP 400: offset too large/);
  });
});
