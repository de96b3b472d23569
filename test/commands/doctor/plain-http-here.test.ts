/**
 * `doctor` on a plain-HTTP store on this machine that is not the sandbox (a stand-in, an SSH tunnel or a local proxy
 * to a real store): its TLS line called it "the sandbox" (a user test), which made the operator doubt which server
 * answered. It says what it knows: plain HTTP on this machine.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('doctor: a plain-HTTP store on this machine', () => {
  it('TLS ok, "plain HTTP on this machine", never named the sandbox', async () => {
    platform.routes['GET /'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json', date: new Date().toUTCString() }).end('{}');
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const result = await runCommandLine(['doctor', '-o', 'json'], {
      configDir: freshConfigDir(),
      env,
      clock: systemClock,
    });
    const findings = JSON.parse(result.stdout) as { check: string; result: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'TLS')).toEqual({
      check: 'TLS',
      result: 'ok',
      detail: 'plain HTTP on this machine',
    });
  });
});
