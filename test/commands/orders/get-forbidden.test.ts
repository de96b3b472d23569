/**
 * A 403 on a route that holds no branch keeps the platform's words (a user test): with the branch code `2`, a 403 to
 * `GET /v1/orders/2` was told as "Branch "2" is not linked to this token's head office" because the order id
 * happened to equal the branch code, and the platform's "Access denied to this order" was dropped. The branch is
 * named only where a route template puts `{branch}`, and then with the platform's words beside it.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('a 403 to an order whose id is the branch code', () => {
  it('is the platform’s refusal of the order, in its words, not an unlinked branch', async () => {
    platform.routes['GET /v1/orders/2'] = (_request, _body, response) =>
      response
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'Access denied to this order' }));
    const result = await runCommandLine(['orders', 'get', '2'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789', B2BCTL_BRANCH: '2' },
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders/2 failed with HTTP 403: Access denied to this order\n`,
    );
  });
});
