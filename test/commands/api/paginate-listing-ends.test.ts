/**
 * What ends `b2bctl api --paginate` (a user test): a page answered `null` (HTTP 200) is no page and stops the run,
 * exit 1, as `false` does, never the listing's end; an answer with no body after items were read still ends it, as
 * documented, with a warning that items may be missing; two equal pages of items without an id are read on, not
 * taken for a route answering its last page again (such items cannot be told from equal ones in a row).
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

/** The `offset` of each request received, in order. */
const asked: number[] = [];

function api(args: string[]) {
  asked.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

const item = (index: number) => ({ id: `i${index}`, n: index });
/** Items `from` to `to` (not included). */
const items = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => item(from + index));

/** `all` by offset and limit on /x/list; the request at `odd.offset` answered `odd.status` and `odd.body`. */
function listing(all: readonly unknown[], odd?: { offset: number; status: number; body: string }) {
  routes['GET /x/list'] = (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://x').searchParams;
    const offset = Number(query.get('offset') ?? 0);
    const limit = Number(query.get('limit') ?? 10);
    asked.push(offset);
    if (odd?.offset === offset) {
      response.writeHead(odd.status, odd.body === '' ? {} : { 'content-type': 'application/json' }).end(odd.body);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(all.slice(offset, offset + limit)));
  };
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

describe('api --paginate: a page answered null', () => {
  it('in mid-listing stops the run, exit 1, as false does: the items before it written, none asked after it', async () => {
    listing(items(0, 45), { offset: 20, status: 200, body: 'null' });
    const result = await api(['/x/list', '--paginate', '--page-size', '10']);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual(items(0, 20));
    expect(asked).toEqual([0, 10, 20]);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/x/list?offset=20&limit=10 answered HTTP 200 with null, which is no page of a listing (a bare array, or an object with one under data, items, content, results…) nor its end (an empty page); run without --paginate to see it.\n`,
    );
  });

  it.each([
    ['false', 'false'],
    ['7', 'a number'],
    ['"OK"', 'a JSON string'],
  ])('%s in mid-listing is told the same way, exit 1', async (body, shown) => {
    listing(items(0, 45), { offset: 10, status: 200, body });
    const result = await api(['/x/list', '--paginate', '--page-size', '10']);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual(items(0, 10));
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/x/list?offset=10&limit=10 answered HTTP 200 with ${shown}, which is no page of a listing (a bare array, or an object with one under data, items, content, results…) nor its end (an empty page); run without --paginate to see it.\n`,
    );
  });

  it('as the first page, with --slurp: nothing on stdout (no empty array), exit 1', async () => {
    listing(items(0, 45), { offset: 0, status: 200, body: 'null' });
    const result = await api(['/x/list', '--paginate', '--page-size', '10', '--slurp']);
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toContain('answered HTTP 200 with null, which is no page of a listing');
  });
});

describe('api --paginate: an answer with no body', () => {
  it.each([204, 200])(
    'HTTP %i with no body after pages of items ends the read as documented, exit 0, with a warning that items may be missing',
    async (status) => {
      listing(items(0, 45), { offset: 20, status, body: '' });
      const result = await api(['/x/list', '--paginate', '--page-size', '10']);
      expect(result.code).toBe(0);
      expect(lines(result.stdout)).toEqual(items(0, 20));
      expect(result.stderr).toBe(
        `warning: GET ${platform.url}/x/list?offset=20&limit=10 answered HTTP ${status} with no body, read as the end of the listing as an empty page is; the platform document ends a listing with [] only, so if this route does too, this answer may be a failure that left out the items from offset 20 on: run it again, or compare the count with the store's.\n`,
      );
    },
  );

  it('no body for the first page is an empty listing: nothing written, no warning, exit 0', async () => {
    listing(items(0, 45), { offset: 0, status: 204, body: '' });
    const result = await api(['/x/list', '--paginate', '--page-size', '10']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('api --paginate: equal pages of items without an id', () => {
  const records = [
    { t: 'a', v: 1 },
    { t: 'b', v: 2 },
    { t: 'c', v: 10 },
    { t: 'c', v: 10 },
    { t: 'c', v: 10 },
    { t: 'c', v: 10 },
    { t: 'e', v: 5 },
    { t: 'f', v: 6 },
  ];

  it('two equal pages in a row are read on, not taken for the end: all 8 written, exit 0, no warning', async () => {
    listing(records);
    const result = await api(['/x/list', '--paginate', '--page-size', '2']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(lines(result.stdout)).toEqual(records);
    expect(asked).toEqual([0, 2, 4, 6, 8]);
  });

  it('--slurp: one array of the 8', async () => {
    listing(records);
    const result = await api(['/x/list', '--paginate', '--page-size', '2', '--slurp']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(records);
  });

  it('the equal pages at the end of the listing: both written, then the empty page ends it', async () => {
    const tail = records.slice(0, 6);
    listing(tail);
    const result = await api(['/x/list', '--paginate', '--page-size', '2']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(lines(result.stdout)).toEqual(tail);
    expect(asked).toEqual([0, 2, 4, 6]);
  });

  it('the page answered again at the next two offsets stops the run, exit 1, naming it; nothing answered again written', async () => {
    // A route that answers its last page for every offset past the end, its items without an id.
    const lastPage = records.slice(6);
    routes['GET /x/list'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? 0);
      asked.push(offset);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(offset === 0 ? records.slice(0, 2) : lastPage));
    };
    const result = await api(['/x/list', '--paginate', '--page-size', '2']);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toEqual([...records.slice(0, 2), ...lastPage]);
    expect(asked).toEqual([0, 2, 4, 6]);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/x/list?offset=6&limit=2 answered the page of offset 2 again at the next two offsets (the same 2 items, in the same order, not each with an id): a route answering its last page past the end of the listing and equal items in a row that b2bctl cannot tell apart give the same answers, so it cannot tell whether the listing goes on; stopped (every item before offset 4 was written once, the pages answered again were not).\n`,
    );
  });

  it('items with an id answered again whole at the next offset still end the read at once, with the warning', async () => {
    const withIds = items(0, 4);
    routes['GET /x/list'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? 0);
      asked.push(offset);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(offset === 0 ? withIds.slice(0, 2) : withIds.slice(2)));
    };
    const result = await api(['/x/list', '--paginate', '--page-size', '2']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual(withIds);
    expect(asked).toEqual([0, 2, 4]);
    expect(result.stderr).toContain('answered the page of offset 2 again (the same 2 items, in the same order)');
  });
});
