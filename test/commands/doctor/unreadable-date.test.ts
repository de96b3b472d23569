/**
 * `doctor`'s clock check behind a front that writes a `Date` header that is no HTTP date (a user test): read loosely,
 * `01/12/2026 02:24:13` was January 12 and failed the check ("platform clock 27907202 s behind this machine …
 * set this machine's clock by NTP"), a clock that was right; `abc 1` was 2001. No clock is read from such a header:
 * the check is skipped, the header quoted.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('doctor: a Date header that is no HTTP date', () => {
  it.each(['01/12/2026 02:24:13', 'abc 1'])(
    'Date: %s — the clock check is skipped, quoting it, not failed',
    async (date) => {
      platform.routes['GET /'] = (_request, _body, response) =>
        response.writeHead(200, { 'content-type': 'application/json', date }).end('{}');
      const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
      const result = await runCommandLine(['doctor', '-o', 'json'], {
        configDir: freshConfigDir(),
        env,
        clock: systemClock,
      });
      const findings = JSON.parse(result.stdout) as { check: string; result: string; detail: string }[];
      expect(findings.find((finding) => finding.check === 'clock')).toEqual({
        check: 'clock',
        result: 'skip',
        detail: `the answer's Date header (${JSON.stringify(date)}) is no HTTP date, so the platform's clock is not known; whatever writes it (a gateway or proxy before the platform) should write one such as Tue, 01 Dec 2026 02:24:13 GMT`,
      });
      expect(result.stderr).not.toContain('clock');
    },
  );

  it('an HTTP date is still read: a platform clock in step passes', async () => {
    platform.routes['GET /'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json', date: new Date().toUTCString() }).end('{}');
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const result = await runCommandLine(['doctor', '-o', 'json'], {
      configDir: freshConfigDir(),
      env,
      clock: systemClock,
    });
    const findings = JSON.parse(result.stdout) as { check: string; result: string }[];
    expect(findings.find((finding) => finding.check === 'clock')?.result).toBe('ok');
  });
});
