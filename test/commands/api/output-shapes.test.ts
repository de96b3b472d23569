/**
 * `b2bctl api -o` on answers whose shape the formats did not fit (a user test): an indented record under `-o ndjson`
 * came out on eleven lines; a record with a list inside under `-o csv` wrote JSON into the CSV with exit 0; `-o csv`
 * and `-o table` kept only the first item's fields, silently, when a platform leaves out null fields. Now: one compact
 * line, one row, and the columns of every item held in memory (with --paginate's CSV, the fields past the first
 * page's named on stderr).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

function api(args: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

/** Three items, each leaving out a field another has (Jackson's NON_NULL). */
const sparse = [
  { id: 1, a: 'x' },
  { id: 2, a: 'y', credit: 500 },
  { id: 3, b: 'z' },
];

/** `items` a page at a time by limit and offset, `[]` past the end. */
function listing(items: readonly unknown[]): void {
  routes['GET /v1/list'] = (request, body, response) => {
    const query = new URL(request.url ?? '', 'http://x').searchParams;
    const offset = Number(query.get('offset') ?? 0);
    const limit = Number(query.get('limit') ?? items.length);
    answerJsonText(200, JSON.stringify(items.slice(offset, offset + limit)))(request, body, response);
  };
}

describe('api -o: a record that is no list', () => {
  it('-o ndjson: an indented record is one compact line, with the note, exit 0', async () => {
    const record = { order: { id: 1, items: [{ sku: 'A' }] }, note: 'x' };
    routes['GET /v1/echo'] = answerJsonText(200, JSON.stringify(record, null, 2));
    const result = await api(['/v1/echo', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"order":{"id":1,"items":[{"sku":"A"}]},"note":"x"}\n');
    expect(result.stderr).toContain('this answer is not one, so it is written as one line.');
  });

  it('-o ndjson keeps the platform numbers on that line', async () => {
    routes['GET /v1/echo'] = answerJsonText(200, '{\n  "price": 0.10000000000000000001,\n  "huge": 1e400\n}');
    const result = await api(['/v1/echo', '-o', 'ndjson']);
    expect(result.stdout).toBe('{"price":0.10000000000000000001,"huge":1e400}\n');
  });

  it('-o json: a record is written as sent, without "formats a list"', async () => {
    routes['GET /v1/echo'] = answerJsonText(200, '{"id":1}');
    const result = await api(['/v1/echo', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"id":1}\n');
    expect(result.stderr).toBe('');
  });

  it('-o csv: a list beside a field that is no paging figure is one row, never JSON in the CSV', async () => {
    routes['GET /v1/echo'] = answerJsonText(200, '{"status":"ok","data":[{"id":1},{"id":2}]}');
    const result = await api(['/v1/echo', '-o', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('status,data\r\nok,"[{""id"":1},{""id"":2}]"\r\n');
    expect(result.stderr).toContain('this answer is one record, so it is written as one row.');
    expect(received).toEqual(['GET /v1/echo']);
  });
});

describe('api -o csv|table: columns of every item', () => {
  it('-o csv without --paginate: the columns are every item field, in first-seen order; no note', async () => {
    listing(sparse);
    const result = await api(['/v1/list', '-o', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('id,a,credit,b\r\n1,x,,\r\n2,y,500,\r\n3,,,z\r\n');
    expect(result.stderr).toBe('');
  });

  it('-o table without --paginate: the same columns', async () => {
    listing(sparse);
    const result = await api(['/v1/list', '-o', 'table']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^ID\s+A\s+CREDIT\s+B$/);
    expect(result.stdout).toMatch(/^3\s+z$/m);
  });

  it('--paginate -o csv: the first page gives the columns; the fields later pages add are named on stderr', async () => {
    listing(sparse);
    const result = await api(['/v1/list', '--paginate', '--page-size', '2', '-o', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('id,a,credit\r\n1,x,\r\n2,y,500\r\n3,,\r\n');
    expect(result.stderr).toContain(
      "warning: later items have a field the CSV columns (the first page's fields) lack, left out: b;",
    );
  });

  it('--paginate -o table: the table waits for every row, so its columns are every item field', async () => {
    listing(sparse);
    const result = await api(['/v1/list', '--paginate', '--page-size', '1', '-o', 'table']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^ID\s+A\s+CREDIT\s+B$/);
    expect(result.stderr).not.toContain('left out');
  });
});
