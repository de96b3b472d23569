/**
 * `b2bctl api --paginate` on a listing whose envelope states its total (`{"data":[…],"total":45}`): a read that ends
 * with fewer items than that total (a route taking `offset` as a page number answers "page 20" empty after 20 of
 * 45) says so on stderr, exit 0; one that reads them all says nothing (a user test).
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

/** The query of each request received, in order. */
const asked: string[] = [];

function api(args: string[]) {
  asked.length = 0;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

/** 45 items in a `data` envelope with `total`; `offset` read as records skipped, or as a page number. */
function listing(offsetIsPage: boolean): RouteHandler {
  const items = Array.from({ length: 45 }, (_, index) => ({ id: index + 1 }));
  return (request, _body, response) => {
    const query = new URL(request.url ?? '', 'http://localhost').searchParams;
    asked.push(query.toString());
    const limit = Number(query.get('limit') ?? '20');
    const offset = Number(query.get('offset') ?? '0');
    const start = offsetIsPage ? offset * limit : offset;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ data: items.slice(start, start + limit), total: 45 }));
  };
}

const linesOf = (stdout: string) => stdout.split('\n').filter(Boolean);

describe('api --paginate against the total the answers state', () => {
  it('a route paging by page number: 20 of a stated 45 written, a warning naming the total, exit 0', async () => {
    routes['GET /v1/xlist'] = listing(true);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '20']);
    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toHaveLength(20);
    expect(asked).toEqual(['offset=0&limit=20', 'offset=20&limit=20']);
    expect(result.stderr).toBe(
      'warning: the listing ended after 20 items, though its answers state a total of 45: 25 may be missing. The route may not take offset as the number of records to skip (a page number instead: read it without --paginate, with its own paging), or records were removed while it was read.\n',
    );
  });

  it('a route paging by records skipped: all 45 written, no warning', async () => {
    routes['GET /v1/xlist'] = listing(false);
    const result = await api(['/v1/xlist', '--paginate', '--page-size', '20']);
    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toHaveLength(45);
    expect(result.stderr).toBe('');
  });

  it('a read from offset 40 of a stated 45: the 5 there are all, no warning', async () => {
    routes['GET /v1/xlist'] = listing(false);
    const result = await api(['/v1/xlist?offset=40', '--paginate', '--page-size', '20']);
    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toHaveLength(5);
    expect(result.stderr).toBe('');
  });
});
