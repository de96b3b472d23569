/**
 * `sellers list` against a listing holding entries that are no sales rep (`null`, a bare string) beside reps: a
 * platform's 2xx, so never a crash or an internal TypeError, and never a closed JSON array of the reps before the
 * entry followed by an error. Such entries are left out with one warning a run naming how many (as orders poll does
 * with entries it cannot read), exit 0 (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { renderedScreen } from '../../support/rendered-screen.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const rep = (id: number, username: string) => ({ id, username, document: '52998224725', attendantCode: `A${id}` });
const ana = rep(1, 'ana.silva@loja.test');
const bruno = rep(2, 'bruno@loja.test');
const noId = { username: 'noid@loja.test' };
/** The first page the tester's platform answered; `[]` at any later offset. */
const oddPage = [ana, null, 'x', noId, bruno];

/** Answers `pages[offset]` (by the query's offset), `[]` past them. */
function listing(pages: Record<number, unknown[]>): void {
  routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
    const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? 0);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pages[offset] ?? []));
  };
}

function run(args: string[], tty = false) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['sellers', 'list', ...args], { configDir: freshConfigDir(), env, tty: { stdout: tty } });
}

const twoLeftOut =
  'warning: 2 listed entries were no sales rep (null, or not a JSON object) and were left out; b2bctl api /sellerModule/listSellers shows the answer as it came.';

describe('sellers list: entries that are no sales rep', () => {
  it('--all -o json: every rep written (the one without an id too), null and "x" left out with one warning, exit 0', async () => {
    listing({ 0: oddPage });
    const result = await run(['--all', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([ana, noId, bruno]);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([twoLeftOut]);
    expect(result.stderr).not.toMatch(/Cannot read properties/);
    // The offset moves past every listed entry, reps or not: the next page asked is at 5, then the listing ends.
    expect(received.filter((line) => line.startsWith('GET /sellerModule'))).toHaveLength(2);
  });

  it('--all: a page of nulls alone is no end of the listing, and the warning counts the entries of every page once', async () => {
    listing({ 0: [ana, null], 2: [null, null], 4: [bruno] });
    const result = await run(['--all', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([ana, bruno]);
    expect(result.stderr).toContain(
      'warning: 3 listed entries were no sales rep (null, or not a JSON object) and were left out;',
    );
  });

  it('--all: a route answering its page of reps and nulls again past the end ends the read there, as without nulls, exit 0', async () => {
    const carla = rep(3, 'carla@loja.test');
    const dora = rep(4, 'dora@loja.test');
    const lastPage = [carla, null, dora];
    // The route clamps the offset to its last page (offset 3): offset 6 answers it again, whole, as would any later.
    routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? 0);
      const page = offset === 0 ? [ana, null, bruno] : lastPage;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
    };
    const result = await run(['--all', '--limit', '3', '-o', 'json']);
    // It stopped with exit 1 ("sales reps are added at the head of the listing as fast as it is read") after 5 more.
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([ana, bruno, carla, dora]);
    // Offsets 0, 3 and 6: the page answered again at 6 ends the read.
    expect(received.filter((line) => line.startsWith('GET /sellerModule'))).toHaveLength(3);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: GET ${platform.url}/sellerModule/listSellers?limit=3&offset=6 answered the page of offset 3 again (the same 2 sales reps, in the same order), as a route that answers its last page past the end of the listing does instead of an empty page: read as the end (every one of the sales reps answered was written once).`,
      // The nulls of the pages read, once each: the page answered again is not read.
      'warning: 2 listed entries were no sales rep (null, or not a JSON object) and were left out; b2bctl api /sellerModule/listSellers shows the answer as it came.',
    ]);
  });

  it('--email: the matching reps written, the entries that are no rep left out with the warning, exit 0', async () => {
    listing({ 0: oddPage });
    const result = await run(['--email', 'loja', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([ana, noId, bruno]);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([twoLeftOut]);
  });

  it('one page -o csv: no blank rows for null and "x"', async () => {
    listing({ 0: oddPage });
    const result = await run(['-o', 'csv']);
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\r\n').filter((line) => line !== '');
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).map((row) => row.split(',')[1])).toEqual([ana.username, noId.username, bruno.username]);
    expect(result.stderr).toContain(twoLeftOut);
  });

  it('the table on a terminal: the reps shown (one without a document too), no TypeError, exit 0', async () => {
    listing({ 0: oddPage });
    const result = await run([], true);
    expect(result.code).toBe(0);
    const screen = await renderedScreen(result.stdout, 120);
    expect(screen.filter((line) => /@loja\.test/.test(line))).toHaveLength(3);
    expect(result.stderr).toContain(twoLeftOut);
  });

  it('one entry left out: said in the singular', async () => {
    listing({ 0: [ana, null] });
    const result = await run(['--all', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: 1 listed entry was no sales rep (null, or not a JSON object) and was left out; b2bctl api /sellerModule/listSellers shows the answer as it came.',
    );
  });
});
