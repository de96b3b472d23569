/**
 * B2BCTL_TOKEN left in the environment (exported for a one-off) outranks the token of whichever profile --profile
 * names, as docs/settings.md says; it was sent to that profile's store without a word (a user test). The precedence is
 * kept, and a run says so in one line (even with --quiet) when the profile has a token of its own for that store.
 */
import { expect, it } from 'vitest';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { temporaryFolder } from '../../support/temporary.js';

const store = useScriptedPlatform();

const tokenOfStoreA = 'token-of-store-a-0123456789';
const tokenOfStoreB = 'token-of-store-b-9876543210';

/** Every Authorization header the listing route received; the listing answered empty. */
function recordAuthorizations(): (string | undefined)[] {
  const seen: (string | undefined)[] = [];
  store.routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
    seen.push(request.headers.authorization);
    answerJson(response, 200, []);
  };
  return seen;
}

/** A config folder with profile "lojaB" logged in to the scripted store (its token valid for a day), or with none. */
function configFolder(profileToken: string | undefined): string {
  const configDir = temporaryFolder('b2bctl-env-token-');
  const now = Date.now();
  new ProfileStore(configDir).update('lojaB', {
    baseUrl: store.url,
    username: 'erp@loja-b.test',
    ...(profileToken === undefined
      ? {}
      : {
          token: profileToken,
          tokenObtainedAt: new Date(now).toISOString(),
          tokenExpiresAt: new Date(now + 86_400_000).toISOString(),
        }),
  });
  return configDir;
}

it.each([[[]], [['--quiet']]])(
  'B2BCTL_TOKEN set over a profile with its own token for its store: sent as documented, with one warning naming the variable (%j)',
  async (extra: string[]) => {
    const seen = recordAuthorizations();
    const result = await runCommandLine(['--profile', 'lojaB', ...extra, 'sellers', 'list', '-o', 'json'], {
      configDir: configFolder(tokenOfStoreB),
      env: { B2BCTL_TOKEN: tokenOfStoreA },
    });
    expect(result.code).toBe(0);
    expect(seen).toEqual([`Bearer ${tokenOfStoreA}`]);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('B2BCTL_TOKEN'));
    expect(warnings).toEqual([
      `warning: B2BCTL_TOKEN is set and is sent to ${store.url} instead of the token cached in profile "lojaB" for that store; unset B2BCTL_TOKEN to use the profile's.`,
    ]);
  },
);

it('B2BCTL_TOKEN over a profile that has no token of its own: no warning, nothing of the profile is set aside', async () => {
  const seen = recordAuthorizations();
  const result = await runCommandLine(['--profile', 'lojaB', 'sellers', 'list', '-o', 'json'], {
    configDir: configFolder(undefined),
    env: { B2BCTL_TOKEN: tokenOfStoreA },
  });
  expect(result.code).toBe(0);
  expect(seen).toEqual([`Bearer ${tokenOfStoreA}`]);
  expect(result.stderr).not.toContain('B2BCTL_TOKEN');
});

it('no B2BCTL_TOKEN: the profile’s token is sent, and nothing is said of the variable', async () => {
  const seen = recordAuthorizations();
  const result = await runCommandLine(['--profile', 'lojaB', 'sellers', 'list', '-o', 'json'], {
    configDir: configFolder(tokenOfStoreB),
  });
  expect(result.code).toBe(0);
  expect(seen).toEqual([`Bearer ${tokenOfStoreB}`]);
  expect(result.stderr).not.toContain('B2BCTL_TOKEN');
});
