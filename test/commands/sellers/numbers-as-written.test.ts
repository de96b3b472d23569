/**
 * `sellers list -o json|ndjson|csv` writes the platform's numbers digit for digit, as `b2bctl api` does: a BigDecimal
 * commission longer than a double (0.10000000000000000001) came out as 0.1, and 1e400 as null, with exit 0 (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes } = platform;
afterAll(removeTemporaryFolders);

/** The page the tester's platform answered, as its text (JSON.stringify could not write these numbers). */
const pageText =
  '[{"id":"s1","username":"a@x.com","profile":{"id":1234567890123456789,"code":"V","name":"N"},"sellerId":9007199254740993,"commission":0.10000000000000000001,"limit":1e400,"rate":12.50}]';
const writtenRep =
  '{"id":"s1","username":"a@x.com","profile":{"id":1234567890123456789,"code":"V","name":"N"},"sellerId":9007199254740993,"commission":0.10000000000000000001,"limit":1e400,"rate":12.5}';

/** One page, then `[]` (the end of --all). */
function listing(): void {
  routes['GET /sellerModule/listSellers'] = (request, body, response) => {
    const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? 0);
    answerJsonText(200, offset === 0 ? pageText : '[]')(request, body, response);
  };
}

function run(args: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['sellers', 'list', ...args], { configDir: freshConfigDir(), env });
}

describe('sellers list: the platform numbers kept as written', () => {
  it.each([[[]], [['--all']]])('-o ndjson %j: each number as the platform wrote it, exit 0', async (extra) => {
    listing();
    const result = await run(['-o', 'ndjson', ...extra]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${writtenRep}\n`);
  });

  it('-o json: the same digits in the array, no null in place of 1e400', async () => {
    listing();
    const result = await run(['-o', 'json', '--all']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"commission": 0.10000000000000000001');
    expect(result.stdout).toContain('"limit": 1e400');
    expect(result.stdout).not.toContain('null');
  });
});
