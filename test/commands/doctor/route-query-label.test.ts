/**
 * A route setting that carries its own query (a gateway wanting its key as `?apikey=`; a user test): doctor's line
 * showed the key in clear, which --verbose masks, and the URL with a second `?` where the request sent `&limit=1`.
 * The line is now the URL sent, the key masked.
 */
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { systemClock } from '../../../src/base/clock.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const apiKey = 'K3ySecretValue99';

it('paths.sellers and paths.orders with ?apikey=: the lines show the URL sent, the key [redacted]', async () => {
  const sentUrls: string[] = [];
  for (const route of ['GET /', 'GET /sellerModule/listSellers', 'GET /v1/orders'])
    platform.routes[route] = (request, _body, response) => {
      sentUrls.push(request.url ?? '');
      answerJson(response, 200, route === 'GET /' ? {} : []);
    };
  const configDir = temporaryFolder('b2bctl-doctor-');
  new ProfileStore(configDir).update('default', {
    baseUrl: platform.url,
    token: 'token-of-the-test',
    tokenObtainedAt: new Date().toISOString(),
    tokenExpiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    'paths.sellers': `/sellerModule/listSellers?apikey=${apiKey}`,
    'paths.orders': `/v1/orders?api_key=${apiKey}`,
  });
  const test = testContext({ configDir, clock: systemClock });
  expect(await test.run(run, {})).toBe(0);
  const checks = (JSON.parse(test.stdout()) as { check: string }[]).map((finding) => finding.check);
  expect(checks).toContain('GET /sellerModule/listSellers?apikey=[redacted]&limit=1');
  expect(checks).toContain('GET /v1/orders?api_key=[redacted]&limit=1');
  expect(test.stdout()).not.toContain(apiKey);
  // The key itself was sent, as the route setting says.
  expect(sentUrls).toEqual([
    '/',
    `/sellerModule/listSellers?apikey=${apiKey}&limit=1`,
    `/v1/orders?api_key=${apiKey}&limit=1`,
  ]);
});
