/**
 * A formatted CNPJ's "/" goes into the customer update, status and addresses paths as `%2F`. A server in front of the
 * platform that refuses encoded slashes (Tomcat with ALLOW_ENCODED_SLASH off and Spring Security's firewall answer
 * 400 with an HTML page, Apache 404) failed every CNPJ with "check the base URL and any proxy in between", though
 * the CPF on the next line went through the same base URL. Such a refusal now names the encoded "/" and the
 * customer.documentInPath setting, whose `digits` sends the document's digits and letters only; a 404 of that kind
 * is no "no customer has the document". The platform's own JSON refusals are read as before.
 */
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { useScriptedWorkspacePerTest } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const workspace = useScriptedWorkspacePerTest(platform);

function run(...args: string[]) {
  return runWith({}, ...args);
}

function runWith(env: Record<string, string>, ...args: string[]) {
  return workspace.run(args, { env });
}

const tomcatPage =
  '<!doctype html><html lang="en"><head><title>HTTP Status 400 – Bad Request</title></head><body><h1>HTTP Status 400 – Bad Request</h1></body></html>';
const apachePage =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body><h1>Not Found</h1></body></html>';

/**
 * A platform behind a server that refuses an encoded "/" in a path with `status` and `page` (HTML); every other path
 * reaches the platform, which answers `answer` (the customer record, or the addresses).
 */
function behindSlashRefusingServer(status: number, page: string) {
  const refuseOrAnswer = (answer: string) => (request: IncomingMessage, _body: string, response: ServerResponse) => {
    if (/%2F/i.test(request.url ?? '')) {
      response.writeHead(status, { 'content-type': 'text/html;charset=utf-8' }).end(page);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  };
  platform.routes['PUT /v1/customer/updateStatus/*'] = refuseOrAnswer('{"active":false}');
  platform.routes['GET /v1/customer/addresses/*'] = refuseOrAnswer('[]');
  // No document in the record: one shown would have to be the one asked (another customer's record is no proof).
  platform.routes['PUT /v1/customer/*'] = refuseOrAnswer('{"id":7,"email":"a@x.com"}');
}

const digitsAdvice =
  'to send the document as its digits and letters only, set customer.documentInPath to digits (b2bctl config set customer.documentInPath digits)';
const refusal = (what: string) =>
  `${what}, not the platform's answer, to a path holding an encoded "/" (%2F): servers that refuse an encoded slash in a path (Tomcat, Spring Security, Apache) answer so before the platform sees the request; ${digitsAdvice}`;
const tomcatRefusal = refusal('an HTML page ("HTTP Status 400 – Bad Request")');

describe('a server that refuses an encoded "/" in a path, customer.documentInPath as-written (the default)', () => {
  it('customer update FILE: the CNPJ row fails naming the encoded "/" and the setting, the CPF row is updated', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    writeFileSync(
      join(workspace.folder, 'up.csv'),
      'document,phone\n11.222.333/0001-81,11987654321\n111.444.777-35,11987654321\n',
    );
    const result = await run('customer', 'update', 'up.csv', '--concurrency', '1');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['PUT /v1/customer/11.222.333%2F0001-81', 'PUT /v1/customer/111.444.777-35']);
    const rows = readReport(join(workspace.folder, onlyReport(workspace.folder, 'up')));
    expect(rows.map((row) => [row.key, row.outcome, row.status, row.message])).toEqual([
      ['11.222.333/0001-81', 'failed', '400', tomcatRefusal],
      ['111.444.777-35', 'updated', '200', ''],
    ]);
    expect(result.stderr).not.toContain('check the base URL');
  });

  it('customer update --document: the error line names the encoded "/" and the setting, exit 1', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    const result = await run('customer', 'update', '--document', '11.222.333/0001-81', '--set', 'phone=11987654321');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: PUT ${platform.url}/v1/customer/11.222.333%2F0001-81 failed with HTTP 400: ${tomcatRefusal}\n`,
    );
    expect(platform.received).toEqual(['PUT /v1/customer/11.222.333%2F0001-81']);
  });

  it('an Apache 404 page is no "no customer has the document": status and addresses say the encoded "/"', async () => {
    behindSlashRefusingServer(404, apachePage);
    const status = await run('customer', 'status', '11.222.333/0001-81', 'inactive');
    expect(status.code).toBe(1);
    expect(status.stderr).toBe(
      `error: PUT ${platform.url}/v1/customer/updateStatus/11.222.333%2F0001-81/false failed with HTTP 404: ${refusal('an HTML page ("404 Not Found")')}\n`,
    );
    const addresses = await run('customer', 'addresses', '11.222.333/0001-81');
    expect(addresses.code).toBe(1);
    expect(addresses.stderr).toBe(
      `error: GET ${platform.url}/v1/customer/addresses/11.222.333%2F0001-81 failed with HTTP 404: ${refusal('an HTML page ("404 Not Found")')}\n`,
    );
    expect(addresses.stdout).toBe('');
  });

  it('an empty 400 to the encoded path is said as such', async () => {
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) => response.writeHead(400).end();
    const result = await run('customer', 'update', '--document', '11.222.333/0001-81', '--set', 'phone=11987654321');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`failed with HTTP 400: ${refusal('an empty answer')}\n`);
  });

  it("the platform's own JSON refusal to an encoded path is its own: a 404 is no such customer, a 400 its words", async () => {
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Customer not found"}');
    const missing = await run('customer', 'update', '--document', '11.222.333/0001-81', '--set', 'phone=11987654321');
    expect([missing.code, missing.stderr]).toEqual([
      1,
      'error: No customer has the document 11.222.333/0001-81 in this store (HTTP 404: Customer not found).\n',
    ]);
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Invalid phone"}');
    const refused = await run('customer', 'update', '--document', '11.222.333/0001-81', '--set', 'phone=11987654321');
    expect(refused.stderr).toBe(
      `error: PUT ${platform.url}/v1/customer/11.222.333%2F0001-81 failed with HTTP 400: Invalid phone\n`,
    );
  });

  it('an HTML 400 to a path without an encoded "/" keeps the base URL advice', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      response.writeHead(400, { 'content-type': 'text/html' }).end(tomcatPage);
    const result = await run('customer', 'update', '--document', '111.444.777-35', '--set', 'phone=11987654321');
    expect(result.stderr).toBe(
      `error: PUT ${platform.url}/v1/customer/111.444.777-35 failed with HTTP 400: an HTML page ("HTTP Status 400 – Bad Request"), not the platform's answer: check the base URL and any proxy in between\n`,
    );
  });
});

describe('customer.documentInPath digits: the document goes into the path as its digits and letters only', () => {
  beforeEach(async () => {
    const set = await run('config', 'set', 'customer.documentInPath', 'digits');
    if (set.code !== 0) throw new Error(`config set customer.documentInPath digits: exit ${set.code}: ${set.stderr}`);
  });

  it('update (a file and --document), status (a file and one) and addresses go through the slash-refusing server', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    writeFileSync(
      join(workspace.folder, 'up.csv'),
      'document,phone\n11.222.333/0001-81,11987654321\n111.444.777-35,11987654321\n',
    );
    writeFileSync(join(workspace.folder, 'st.csv'), 'document,active\n11.222.333/0001-81,false\n');
    const update = await run('customer', 'update', 'up.csv', '--concurrency', '1');
    expect(update.code).toBe(0);
    expect(readReport(join(workspace.folder, onlyReport(workspace.folder, 'up'))).map((row) => row.outcome)).toEqual([
      'updated',
      'updated',
    ]);
    const one = await run('customer', 'update', '--document', '11.222.333/0001-81', '--set', 'phone=11987654321');
    expect(one.code).toBe(0);
    expect((await run('customer', 'status', 'st.csv')).code).toBe(0);
    expect((await run('customer', 'status', '11.222.333/0001-81', 'inactive')).code).toBe(0);
    const addresses = await run('customer', 'addresses', '11.222.333/0001-81', '-o', 'json');
    expect([addresses.code, addresses.stdout]).toEqual([0, '[]\n']);
    expect(platform.received).toEqual([
      'PUT /v1/customer/11222333000181',
      'PUT /v1/customer/11144477735',
      'PUT /v1/customer/11222333000181',
      'PUT /v1/customer/updateStatus/11222333000181/false',
      'PUT /v1/customer/updateStatus/11222333000181/false',
      'GET /v1/customer/addresses/11222333000181',
    ]);
  });

  it('an alphanumeric CNPJ keeps its letters', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    const result = await run('customer', 'update', '--document', '12.ABC.345/01DE-35', '--set', 'phone=11987654321');
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['PUT /v1/customer/12ABC34501DE35']);
  });

  it('B2BCTL_CUSTOMER_DOCUMENT_IN_PATH sets it without a profile, for a cron job that has none', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    expect((await run('config', 'unset', 'customer.documentInPath')).code).toBe(0);
    const env = { B2BCTL_CUSTOMER_DOCUMENT_IN_PATH: 'digits' };
    const result = await runWith(env, 'customer', 'status', '11.222.333/0001-81', 'inactive');
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['PUT /v1/customer/updateStatus/11222333000181/false']);
  });

  it('config get shows it, and a word it does not know is refused', async () => {
    expect((await run('config', 'get', 'customer.documentInPath')).stdout).toBe('digits\n');
    const wrong = await run('config', 'set', 'customer.documentInPath', 'bare');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('must be one of as-written, digits');
  });
});

describe('customer create, when the question after a create goes through the slash-refusing server', () => {
  const header =
    'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';
  const cnpjRow = 'cnpj,11.222.333/0001-81,Loja A,a@x.com,11987654321,Senha#1001,01310-100,11';

  const apacheRefusal = refusal('an HTML page ("404 Not Found")');

  it('a 400 to the create (a duplicate?): failed, naming the encoded "/", not "no customer has document"', async () => {
    behindSlashRefusingServer(404, apachePage);
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Document already registered"}');
    writeFileSync(join(workspace.folder, 'new.csv'), `${header}\n${cnpjRow}\n`);
    const result = await run('customer', 'create', 'new.csv', '--upsert');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/11.222.333%2F0001-81']);
    const rows = readReport(join(workspace.folder, onlyReport(workspace.folder, 'new')));
    expect(rows.map((row) => [row.outcome, row.status, row.message])).toEqual([
      ['failed', '404', `PUT ${platform.url}/v1/customer/11.222.333%2F0001-81 failed with HTTP 404: ${apacheRefusal}`],
    ]);
  });

  it('a 502 to the create: unknown, as when the question cannot be asked, not "no customer had document"', async () => {
    behindSlashRefusingServer(404, apachePage);
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(502, { 'content-type': 'application/json' }).end('{"message":"Bad Gateway"}');
    writeFileSync(join(workspace.folder, 'new.csv'), `${header}\n${cnpjRow}\n`);
    const result = await run('customer', 'create', 'new.csv');
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/11.222.333%2F0001-81']);
    const rows = readReport(join(workspace.folder, onlyReport(workspace.folder, 'new')));
    expect(rows.map((row) => row.outcome)).toEqual(['unknown']);
    expect(rows[0]?.message).toContain(`Whether customer 11.222.333/0001-81 was created could not be asked either`);
    expect(rows[0]?.message).toContain('customer.documentInPath');
    expect(rows[0]?.message).not.toContain('No customer had document');
    expect(result.code).not.toBe(0);
  });
});

describe('doctor --document asks the update route as the customer commands send the document', () => {
  it.each([
    ['as-written', 'PUT /v1/customer/11.222.333%2F0001-81'],
    ['digits', 'PUT /v1/customer/11222333000181'],
  ])('customer.documentInPath %s: %s', async (spelling, expected) => {
    behindSlashRefusingServer(400, tomcatPage);
    expect((await run('config', 'set', 'customer.documentInPath', spelling)).code).toBe(0);
    await run('doctor', '--document', '11.222.333/0001-81');
    expect(platform.received.filter((request) => request.startsWith('PUT /v1/customer/'))).toEqual([expected]);
  });

  it('a refused encoded "/" is a failed check naming the setting, not the HTML page', async () => {
    behindSlashRefusingServer(400, tomcatPage);
    const result = await run('doctor', '--document', '11.222.333/0001-81', '-o', 'json');
    const findings = JSON.parse(result.stdout) as { check: string }[];
    expect(findings.find((finding) => finding.check.startsWith('PUT /v1/customer/'))).toEqual({
      check: 'PUT /v1/customer/11.222.333%2F0001-81 {}',
      status: 400,
      result: 'fail',
      detail: tomcatRefusal,
      setting: 'customer.documentInPath',
    });
    expect(result.code).not.toBe(0);
  });
});

/** How b2bctl says a 404 quoting the path with its "/" decoded, `quoted` the part it found. */
const decodedRefusal = (quoted = 'customer/11.222.333/0001-81') =>
  `the answer quotes the path with its encoded "/" (%2F) decoded ("${quoted}"): a server in front of the platform decoded it (as nginx's proxy_pass with a path does), so the platform saw another path, and this 404 says nothing of the record; ${digitsAdvice}`;

/** The path an application behind a server that decodes `%2F` sees. */
const decodedRoute = (request: IncomingMessage) => decodeURIComponent(request.url ?? '');

/** Every path holding %2F answered as the application answers the decoded path it sees: a route-miss 404. */
function behindDecodingProxy(notFound: (path: string) => unknown) {
  const routeMiss = (request: IncomingMessage, _body: string, response: ServerResponse) =>
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify(notFound(decodedRoute(request))));
  platform.routes['PUT /v1/customer/*'] = routeMiss;
  platform.routes['PUT /v1/customer/updateStatus/*'] = routeMiss;
}

/**
 * Behind an nginx whose `proxy_pass` has a URI part, `%2F` reaches the platform decoded (`/v1/customer/11.222.333/
 * 0001-81`), which matches no route: the application answers its framework's JSON 404, quoting the path it saw (a
 * user test). Such a 404 says nothing of the customer, whatever its words: the lost create stays unknown, and the
 * update and status name customer.documentInPath, never "no customer has the document".
 */
describe('a JSON 404 to a path holding %2F, from a platform behind a server that decoded the "/"', () => {
  const header =
    'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';
  const cnpjRow = 'cnpj,11.222.333/0001-81,Loja A,a@x.com,11987654321,Senha#1001,01310-100,11';

  it('a create whose answer was lost stays unknown, and its resume asks again, sends nothing and never fails it', async () => {
    behindDecodingProxy((path) => ({ erro: `rota desconhecida ${path}` }));
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
    writeFileSync(join(workspace.folder, 'ng.csv'), `${header}\n${cnpjRow}\n`);
    const first = await run('customer', 'create', 'ng.csv');
    expect(first.code).not.toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/11.222.333%2F0001-81']);
    const report = onlyReport(workspace.folder, 'ng');
    const lost = readReport(join(workspace.folder, report));
    expect(lost.map((row) => row.outcome)).toEqual(['unknown']);
    expect(lost[0]?.message).toContain(`rota desconhecida /v1/customer/11.222.333/0001-81; ${decodedRefusal()}`);

    platform.received.length = 0;
    const resumed = await run('customer', 'create', 'ng.csv', '--resume', report);
    expect(resumed.code).not.toBe(0);
    expect(platform.received).toEqual(['PUT /v1/customer/11.222.333%2F0001-81']);
    const rows = readReport(join(workspace.folder, report));
    expect(rows.map((row) => row.outcome)).toEqual(['unknown']);
    expect(rows[0]?.message).toContain(decodedRefusal());
    expect(resumed.stderr).toContain('customer create: 1 unknown;');
    expect(resumed.stderr).toContain('once customer.documentInPath is set as it says, run: ');
    expect(resumed.stderr).not.toContain('unavailable');
    expect(resumed.stderr).not.toContain('customer create: 1 failed');
  });

  it('customer update FILE: the CNPJ row fails naming the setting, not "no customer has the document"', async () => {
    behindDecodingProxy((path) => ({ status: 404, error: 'Not Found', path }));
    writeFileSync(join(workspace.folder, 'up.csv'), 'document,phone\n11.222.333/0001-81,11987654321\n');
    const result = await run('customer', 'update', 'up.csv');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['PUT /v1/customer/11.222.333%2F0001-81']);
    const rows = readReport(join(workspace.folder, onlyReport(workspace.folder, 'up')));
    expect(rows.map((row) => [row.outcome, row.status, row.message])).toEqual([
      ['failed', '404', `Not Found; ${decodedRefusal()}`],
    ]);
    expect(result.stderr).not.toContain('no customer has the document');
  });

  it('customer status DOCUMENT: the error names customer.documentInPath, not paths.customerStatus', async () => {
    behindDecodingProxy((path) => ({ erro: `rota desconhecida ${path}` }));
    const result = await run('customer', 'status', '11.222.333/0001-81', 'inactive');
    expect([result.code, result.stderr]).toEqual([
      1,
      `error: PUT ${platform.url}/v1/customer/updateStatus/11.222.333%2F0001-81/false failed with HTTP 404: rota desconhecida /v1/customer/updateStatus/11.222.333/0001-81/false; ${decodedRefusal('updateStatus/11.222.333/0001-81')}\n`,
    ]);
    expect(platform.received).toEqual(['PUT /v1/customer/updateStatus/11.222.333%2F0001-81/false']);
  });

  it('create --upsert of a registered CNPJ: failed naming the setting, nothing created again', async () => {
    behindDecodingProxy((path) => ({ erro: `rota desconhecida ${path}` }));
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"message":"CPF/CNPJ ja cadastrado na loja"}');
    writeFileSync(join(workspace.folder, 'ng.csv'), `${header}\n${cnpjRow}\n`);
    const result = await run('customer', 'create', 'ng.csv', '--upsert');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/11.222.333%2F0001-81']);
    const rows = readReport(join(workspace.folder, onlyReport(workspace.folder, 'ng')));
    expect(rows.map((row) => [row.outcome, row.status])).toEqual([['failed', '404']]);
    expect(rows[0]?.message).toContain(decodedRefusal());
  });
});
