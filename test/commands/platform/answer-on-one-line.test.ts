/**
 * The platform's words quoted in an error are one line and bounded, whatever the body held: a line break in them
 * would leave orphan lines in a cron job's log (docs/output.md: "Errors are one line").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

function run(args: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(args, { configDir: freshConfigDir(), env });
}

describe("the platform's refusal quoted in an error", () => {
  it('a JSON message over several lines: one error line, its words joined by spaces, asked once', async () => {
    platform.routes['GET /v1/orders/4'] = (_request, _body, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'Pedido invalido:\r\n  campo id\n\tfora do intervalo\u2028tente de novo' }));
    const result = await run(['orders', 'get', '4']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error: .*HTTP 400: Pedido invalido: campo id fora do intervalo tente de novo/),
    ]);
    expect(platform.received.filter((key) => key === 'GET /v1/orders/4')).toHaveLength(1);
  });

  it('a JSON message of thousands of characters is cut, so the line stays bounded', async () => {
    platform.routes['GET /v1/orders/4'] = (_request, _body, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `falha\n${'x'.repeat(5000)}` }));
    const result = await run(['orders', 'get', '4']);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`HTTP 400: falha ${'x'.repeat(494)}…`);
    expect(lines[0]!.length).toBeLessThan(1000);
  });
});
