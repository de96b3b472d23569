/**
 * `b2bctl api -X POST` answered 200 whose body is cut short: the status line came, so the request reached the
 * platform. The line said `failed (UND_ERR_SOCKET) after the request may have reached the platform` where the GET of
 * the same cut says it was answered (a user test). Not sent again, exit 69, as any write that may have been applied.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('api: a write answered 200, its body cut short', () => {
  it('says it was answered and may have been applied, not sent again, exit 69', async () => {
    platform.routes['POST /v1/xlist'] = (request: { socket: { end: (text: string) => void } }) =>
      request.socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 1000\r\n\r\n{"created":true,"id":5',
      );
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const result = await runCommandLine(['api', '-X', 'POST', '/v1/xlist', '-f', 'a=1'], {
      configDir: freshConfigDir(),
      env,
    });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: POST ${platform.url.replace(/[.]/g, '\\.')}/v1/xlist answered( HTTP 200)?, but the connection closed before the answer's end \\(.+\\); not sent again: it reached the platform and may have been applied\\. Check whether it was before sending it again\\.\\n$`,
      ),
    );
    expect(platform.received).toEqual(['POST /v1/xlist']);
  });
});
