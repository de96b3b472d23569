/**
 * A cron run whose login (B2BCTL_PASSWORD) is what the network cuts (finding t11-8): the error named the platform's
 * origin only ("No answer from http://host … connection cut"), as if the run's own requests had failed. It now
 * names the token route and the user; nothing else is sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('stock push: the login itself gets no answer', () => {
  it('the error names the token route and the user; no batch is sent', async () => {
    platform.routes['POST /v1/auth/token'] = (_request, _body, response) => response.socket?.destroy();
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\n');
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', '--retries', '1'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_USERNAME: 'erp@t11.test', B2BCTL_PASSWORD: 'secret' },
      cwd: folder,
      clock: new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0)),
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      `Logging in as erp@t11.test (POST ${platform.url}/v1/auth/token) failed: No answer from ${platform.url} after 2 attempts: the connection to ${platform.url.slice('http://'.length)} was cut before an answer came (UND_ERR_SOCKET).`,
    );
    expect(platform.received.every((request) => request === 'POST /v1/auth/token')).toBe(true);
  });
});
