/**
 * `b2bctl api --paginate` on answers that repeat without a listing moving (a user test) and on a common envelope
 * beside its list (a user test): two records sharing an id in one answer are both written; a record whose id an earlier
 * page wrote with another record is written too; a route answering its last page again past the end ends the read
 * at the first repeat, exit 0, with a warning; `{"status":"ok","data":[…]}` is refused naming the field beside the list.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJsonText, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

/** The offset of each request received, in order. */
const asked: number[] = [];

function api(args: string[]) {
  asked.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

/** Answers the pages in order, one a request, whatever the offset asked; the last again for every later request. */
function pagesInOrder(pages: readonly unknown[][]): RouteHandler {
  return (request, _body, response) => {
    asked.push(Number(new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0'));
    const page = pages[Math.min(asked.length, pages.length) - 1];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  };
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

describe('api --paginate: records sharing an id', () => {
  it('two records of one customer in one answer (one a branch) are both written, exit 0, no warning', async () => {
    const page = [
      { id: 1, branch: '0001', limit: 100 },
      { id: 1, branch: '0002', limit: 200 },
      { id: 2, branch: '0001', limit: 300 },
    ];
    routes['GET /v1/xlist'] = pagesInOrder([page, []]);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '3']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(lines(result.stdout)).toEqual(page);
    expect(asked).toEqual([0, 3]);
  });

  it('two equal records in one answer are both written: one answer is no shift', async () => {
    const page = [{ id: 'a' }, { id: 'a' }];
    routes['GET /v1/xlist'] = pagesInOrder([page, []]);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '2']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(lines(result.stdout)).toEqual(page);
  });

  it('a record whose id an earlier page wrote with another record is written, not lost; an equal one is skipped', async () => {
    const first = [
      { id: 1, branch: '0001' },
      { id: 2, branch: '0001' },
    ];
    const second = [
      { id: 2, branch: '0001' },
      { id: 1, branch: '0002' },
    ];
    routes['GET /v1/xlist'] = pagesInOrder([first, second, []]);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '2']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([...first, { id: 1, branch: '0002' }]);
    expect(asked).toEqual([0, 2, 4]);
    expect(result.stderr).toBe(
      'warning: the listing changed while it was read (1 item already written answered again further down, the first in the page of offset 2, each written once): an item added or removed meanwhile may be missing; run it again for a settled list.\n',
    );
  });
});

/** Items `from` to `to` (not included) of a listing of reps. */
const itemsFrom = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => ({ id: `i${from + index}`, username: `r${from + index}@x.com` }));

describe('api --paginate: a route that answers its last page again past the end', () => {
  it('the same page at the next offset ends the read at the first repeat: each item once, exit 0, a warning', async () => {
    routes['GET /v1/xlist'] = pagesInOrder([itemsFrom(0, 20), itemsFrom(20, 40)]);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '20']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual(itemsFrom(0, 40));
    expect(asked).toEqual([0, 20, 40]);
    expect(result.stderr.split('\n')).toEqual([
      `warning: GET ${platform.url}/v1/xlist?offset=40&limit=20 answered the page of offset 20 again (the same 20 items, in the same order), as a route that answers its last page past the end of the listing does instead of an empty page: read as the end (every one of the items answered was written once).`,
      '',
    ]);
  });

  it('a page whose ends are the same but not its middle is no repeat of the whole page: its new items are written', async () => {
    const last = itemsFrom(20, 23);
    const changedMiddle = [last[0], { id: 'i99', username: 'new@x.com' }, last[2]];
    routes['GET /v1/xlist'] = pagesInOrder([itemsFrom(0, 3), last, changedMiddle, []]);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '3']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([...itemsFrom(0, 3), ...last, { id: 'i99', username: 'new@x.com' }]);
    expect(asked).toEqual([0, 3, 6, 9]);
  });
});

describe('api --paginate: a list beside fields that are no paging figure', () => {
  it.each([
    ['{"status":"ok","data":[{"id":1},{"id":2}]}', 'status'],
    ['{"data":[{"id":1}],"success":true}', 'success'],
  ])('%s: refused naming the list under data and the field beside it, exit 1, one request', async (body, field) => {
    routes['GET /v1/echo'] = answerJsonText(200, body);
    const result = await api(['/v1/echo', '--paginate']);
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(platform.received).toEqual(['GET /v1/echo']);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/echo?offset=0 answered an object with a list under data beside fields that are no paging figure (${field}): --paginate reads an object as a page of a listing only when every field beside its list is one (total, offset, next…); an object with other fields may be one record holding a list, or a refusal such as {"status":"ERROR","data":[]} that read as a page would end the listing. Run without --paginate to see it.\n`,
    );
  });
});
