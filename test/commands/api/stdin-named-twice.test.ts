/**
 * `b2bctl api` with stdin named for two values (`--input -` and `-F a=@-`, or two `-F …=@-`): stdin can be read once,
 * and the one text went out twice, into the body and into the query string (where proxies and access logs keep it),
 * with exit 0 (a user test). A usage error, exit 2, nothing sent, as gh api refuses it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

function api(args: string[], stdin: string) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env, stdin });
}

describe('api: stdin named twice', () => {
  it.each([
    [['--input', '-', '-F', 'a=@-'], '{"z":1}\n', '--input - and -F a=@- both name stdin'],
    [['-F', 'a=@-', '-F', 'b=@-'], 'hi\n', '-F a=@- and -F b=@- both name stdin'],
    [['--input', '-', '-F', 'a=@-', '-F', 'b[c]=@-'], 'x', '--input -, -F a=@- and -F b[c]=@- all name stdin'],
  ])('%j: exit 2, nothing sent, the flags named', async (args, stdin, named) => {
    routes['POST /v1/echo'] = answerJsonText(200, '{}');
    const result = await api(['-X', 'POST', '/v1/echo', ...args], stdin);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${named}, which can be read once;`);
    expect(result.stderr).toContain('Nothing was sent.');
    expect(received).toEqual([]);
  });

  it('stdin named once beside a file is sent as before', async () => {
    routes['POST /v1/echo'] = answerJsonText(200, '{"ok":true}');
    const result = await api(['-X', 'POST', '/v1/echo', '-F', 'a=@-', '-f', 'b=2'], 'hi');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"ok":true}');
    expect(received).toEqual(['POST /v1/echo']);
  });
});
