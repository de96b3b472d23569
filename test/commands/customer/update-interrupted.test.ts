/**
 * `customer update --document … --set …` stopped by SIGTERM after its request was sent, its answer never read (a
 * fresh user test): it said only `Interrupted (SIGTERM) during PUT …`, though the platform may have applied it. The
 * line says so; a partial update sets the values given, so sending it again does no harm, and the line says that too.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';

const platform = useScriptedPlatform();
const held: ServerResponse[] = [];
afterEach(() => {
  for (const response of held.splice(0)) response.writeHead(503).end();
});

it('interrupted once its PUT has arrived: exit 75, the platform may have applied it, sent once', async () => {
  let test: TestContext | undefined;
  platform.routes['PUT /v1/customer/*'] = (_request, _body, response) => {
    held.push(response);
    test?.interrupt('SIGTERM');
  };
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(['customer', 'update', '--document', '529.982.247-25', '--set', 'name=Sig'], {
    configDir: freshConfigDir(),
    env,
    started: (context) => (test = context),
  });
  expect(result.code).toBe(75);
  expect(result.stderr).toMatch(
    /^error: Interrupted \(SIGTERM\) during PUT \S+\/v1\/customer\/\S+, after the request was sent: the platform may have applied it; sending it again does no harm \(it is safe to repeat\)\.\n$/,
  );
  expect(platform.received.filter((key) => key.startsWith('PUT '))).toHaveLength(1);
});
