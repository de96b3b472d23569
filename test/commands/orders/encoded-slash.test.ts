/**
 * A "/" of an order id or a branch code goes into a path as `%2F`, which a server in front of the platform may refuse
 * (Tomcat, Spring Security, Apache answer 400 or 404 with a page of their own). A CNPJ's refusal names the
 * customer.documentInPath setting (test/commands/customer/encoded-slash.test.ts); these values have no other spelling,
 * so the refusal said nothing anyone could do. It now names the value that holds the "/" and the server settings that
 * let it through. `b2bctl api` says so for the branch it fills in; a %2F written in its path is the user's own text,
 * its answer shown as it came. A seller's e-mail goes in the query and a SKU in the body: neither reaches a path.
 */
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { useScriptedWorkspacePerTest } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const workspace = useScriptedWorkspacePerTest(platform);

beforeEach(() => {
  for (const route of ['GET /v1/orders/*', 'POST /api/filiais/*', 'GET /v1/branches/*'])
    platform.routes[route] = refuseOrAnswer;
});

/** A server that refuses a path holding `%2F` with Tomcat's page, and passes the rest to a platform that answers 200. */
function refuseOrAnswer(request: IncomingMessage, _body: string, response: ServerResponse): void {
  if (/%2F/i.test(request.url ?? '')) {
    response.writeHead(400, { 'content-type': 'text/html;charset=utf-8' }).end(tomcatPage);
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"7","status":"NEW"}');
}

function run(...args: string[]) {
  return workspace.run(args);
}

const tomcatPage =
  '<!doctype html><html lang="en"><head><title>HTTP Status 400 – Bad Request</title></head><body><h1>HTTP Status 400 – Bad Request</h1></body></html>';
const refused =
  'an HTML page ("HTTP Status 400 – Bad Request"), not the platform\'s answer, to a path holding an encoded "/" (%2F): servers that refuse an encoded slash in a path (Tomcat, Spring Security, Apache) answer so before the platform sees the request';
const letThrough =
  "which b2bctl has no other way to write: ask whoever runs that server to let an encoded slash through to the platform (Tomcat: ALLOW_ENCODED_SLASH; Spring Security: StrictHttpFirewall's allowUrlEncodedSlash; Apache: AllowEncodedSlashes NoDecode)";

describe('a server that refuses an encoded "/" of a value with no other spelling', () => {
  it('orders get PED/1: the error names the order id and what lets it through, exit 1', async () => {
    const result = await run('orders', 'get', 'PED/1');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['GET /v1/orders/PED%2F1']);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `error: GET ${platform.url}/v1/orders/PED%2F1 failed with HTTP 400: ${refused}; the "/" belongs to the order id "PED/1", ${letThrough}`,
    ]);
    expect(result.stdout).toBe('');
  });

  it('an order move whose route names {branch}, given SP/01: rejected naming the branch code, exit 1', async () => {
    writeFileSync(
      join(workspace.folder, 'rotas.json'),
      JSON.stringify({
        cancel: {
          method: 'POST',
          path: '/api/filiais/{branch}/pedidos/{id}/cancelamento',
          body: { motivo: '{reason}' },
        },
      }),
    );
    const args = ['orders', 'cancel', '7', '--reason', 'x', '--branch', 'SP/01', '--routes', 'rotas.json'];
    const result = await run(...args, '--no-status-check', '-o', 'json');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /api/filiais/SP%2F01/pedidos/7/cancelamento']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      order: '7',
      outcome: 'rejected',
      status: 400,
      message: `${refused}; the "/" belongs to the branch code "SP/01", ${letThrough}`,
    });
  });

  it('api with --branch SP/01: the error names the branch code; a %2F written in the path is shown as answered', async () => {
    const filled = await run('api', '/v1/branches/{branch}/contracts', '--branch', 'SP/01');
    expect(filled.code).toBe(1);
    expect(filled.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: GET ${platform.url}/v1/branches/SP%2F01/contracts failed with HTTP 400: ${refused}; the "/" belongs to the branch code "SP/01" (--branch or the branch setting), ${letThrough}`,
    );
    const written = await run('api', '/v1/orders/PED%2F1');
    expect(written.code).toBe(1);
    expect(written.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: GET ${platform.url}/v1/orders/PED%2F1 answered HTTP 400.`,
    );
    expect(platform.received).toEqual(['GET /v1/branches/SP%2F01/contracts', 'GET /v1/orders/PED%2F1']);
  });
});
