import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.js';
import {
  clientSecret,
  listenInProcess,
  postWithToken,
  removeReceiverFolders,
  sampleOrder,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

// Variables the shell itself sets in any environment it is given.
const setByTheShell = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

describe('--exec commands get a clean environment', () => {
  it("PATH, HOME, LANG, TZ, the event's variables and the --exec-env names: no secret of the receiver", async () => {
    // Planted in this process's environment too: in the built CLI the context's environment is that one.
    process.env.B2BCTL_PASSWORD = 'planted-process-password';
    const folder = temporaryFolder();
    const file = join(folder, 'environment.txt');
    // The receiver's environment holds its client secret (B2BCTL_WEBHOOK_CLIENT_SECRET) too.
    const env = {
      B2BCTL_PASSWORD: 'planted-platform-password',
      B2BCTL_TOKEN: 'planted-platform-token',
      HTTPS_PROXY: 'http://proxy-user:planted-proxy-password@proxy.internal:3128',
      AWS_SECRET_ACCESS_KEY: 'planted-cloud-key',
      ERP_DATABASE_URL: 'postgres://erp@db/erp',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/home/receiver',
      LANG: 'pt_BR.UTF-8',
      TZ: 'America/Sao_Paulo',
    };
    const exec = { exec: `env > '${file}'`, execEnv: ['ERP_DATABASE_URL'] };
    const { url, stop } = await listenInProcess(join(folder, 'inbox'), exec, { env });
    const answer = await postWithToken(url, 'orders', sampleOrder);
    const { deliveryId } = (await answer.json()) as { deliveryId: string };
    await until(() => existsSync(file) && readFileSync(file, 'utf8').includes('B2BCTL_DELIVERY_ID'));
    await stop();
    delete process.env.B2BCTL_PASSWORD;
    const text = readFileSync(file, 'utf8');
    for (const planted of ['planted-', clientSecret]) expect(text).not.toContain(planted);
    const variables = Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
        .filter(([name]) => !setByTheShell.has(name as string)),
    );
    expect(variables).toEqual({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/home/receiver',
      LANG: 'pt_BR.UTF-8',
      TZ: 'America/Sao_Paulo',
      ERP_DATABASE_URL: 'postgres://erp@db/erp',
      B2BCTL_EVENT_KIND: 'orders',
      B2BCTL_EVENT_ID: '1',
      B2BCTL_DELIVERY_ID: deliveryId,
    });
  });
});
