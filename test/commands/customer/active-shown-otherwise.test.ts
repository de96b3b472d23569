/**
 * A 2xx to a status change or an update whose customer record shows `active` the opposite of what was sent (a user
 * test): `customer status DOC false` answered `{"document":…,"active":true}` said "is now inactive", exit 0,
 * and the customer kept buying. Such a record is no proof: `unknown` (exit 69 for one customer, 1 for a file),
 * quoting the record's `active`. A record that shows no `active`, or the one sent, is still done.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { onlyReport, readReport } from '../../support/run-files.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const maria = '100.007.919-89';
const jose = '100.015.838-16';

const answer = (status: number, body: unknown) => answerJsonText(status, JSON.stringify(body));
const b2bctl = (args: readonly string[], files?: Record<string, string>) =>
  runInScriptedWorkspace(platform, args, files);

const shownActive = (active: boolean, sent: boolean, name = 'active') =>
  `the platform answered HTTP 200 with the customer's record showing "${name}": ${active}, though ${sent} was sent; whether it was applied is not known (sending it again is harmless)`;

describe('customer status DOC, the record answered showing the opposite active', () => {
  it.each([
    ['its document only', { document: '10000791989', active: true }],
    ['the whole record', { id: 1001, document: maria, active: true, name: 'Maria' }],
    ['the record in a data envelope', { data: { id: 1001, document: maria, active: true } }],
  ])('false answered with %s showing true: unknown, exit 69, never "is now inactive"', async (_name, body) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(200, body);
    const { result } = await b2bctl(['customer', 'status', maria, 'false']);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([`PUT /v1/customer/updateStatus/${maria}/false`]);
    expect(result.stderr).not.toContain('is now inactive');
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`error: Customer ${maria}: ${shownActive(true, false)}.`);
  });

  it('false answered by a platform naming it in Portuguese, `"ativo": true`: unknown, exit 69, quoting `ativo`', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(200, { documento: maria, ativo: true });
    const { result } = await b2bctl(['customer', 'status', maria, 'false']);
    expect(result.code).toBe(69);
    expect(result.stderr).not.toContain('is now inactive');
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `error: Customer ${maria}: ${shownActive(true, false, 'ativo')}.`,
    );
  });

  it('true answered with a record showing false: unknown, exit 69, never "is now active"', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(200, { document: maria, active: false });
    const { result } = await b2bctl(['customer', 'status', maria, 'active']);
    expect(result.code).toBe(69);
    expect(result.stderr).not.toContain('is now active');
    expect(result.stderr).toContain(shownActive(false, true));
  });

  it.each([
    ['a record without active', { document: '10000791989', name: 'Maria' }],
    ['the active sent', { document: maria, active: false }],
    ['the active sent, as a flag letter', { document: maria, ativo: 'N' }],
    ['active in other words (not read)', { document: maria, active: 'pendente' }],
    ['the ativo sent', { documento: maria, ativo: false }],
  ])('false answered with %s: done, exit 0', async (_name, body) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(200, body);
    const { result } = await b2bctl(['customer', 'status', maria, 'false']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Customer ${maria} is now inactive.`);
  });

  it('a file: the row answered the opposite active unknown, the other updated, exit 1', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = (request, body, response) => {
      const asked = decodeURIComponent((request.url ?? '').split('/').at(-2) ?? '');
      answer(200, { document: asked, active: true })(request, body, response);
    };
    const { result, folder } = await b2bctl(['customer', 'status', 's.csv'], {
      's.csv': `document,active\n${maria},false\n${jose},true\n`,
    });
    expect(result.code).toBe(1);
    // Sent side by side: in either order.
    expect(platform.received.toSorted()).toEqual([
      `PUT /v1/customer/updateStatus/${maria}/false`,
      `PUT /v1/customer/updateStatus/${jose}/true`,
    ]);
    const rows = readReport(join(folder, onlyReport(folder, 's')));
    expect(rows.map((row) => [row.key, row.outcome, row.status, row.message])).toEqual([
      [maria, 'unknown', '200', shownActive(true, false)],
      [jose, 'updated', '200', 'active'],
    ]);
  });
});

describe('customer update setting active, the record answered showing the opposite', () => {
  const record = { id: 1002, document: jose, active: true };

  it('--document --set active=false: unknown, exit 69, never "Updated customer"', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(200, record);
    const { result } = await b2bctl(['customer', 'update', '--document', jose, '--set', 'active=false']);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([`PUT /v1/customer/${jose}`]);
    expect(result.stderr).not.toContain('Updated customer');
    expect(result.stderr.trim().split('\n').at(-1)).toBe(`error: Customer ${jose}: ${shownActive(true, false)}.`);
  });

  it('a file: the row setting active unknown, a row that sets no active updated, exit 1', async () => {
    platform.routes['PUT /v1/customer/*'] = (request, body, response) => {
      const asked = decodeURIComponent((request.url ?? '').split('/').at(-1) ?? '');
      answer(200, { id: 7, document: asked, active: true })(request, body, response);
    };
    const { result, folder } = await b2bctl(['customer', 'update', 'u.csv'], {
      'u.csv': `document,name,active\n${maria},Maria Souza,\n${jose},,false\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received.toSorted()).toEqual([`PUT /v1/customer/${maria}`, `PUT /v1/customer/${jose}`]);
    const rows = readReport(join(folder, onlyReport(folder, 'u')));
    expect(rows.map((row) => [row.key, row.outcome, row.id, row.message])).toEqual([
      [maria, 'updated', '7', ''],
      [jose, 'unknown', '', shownActive(true, false)],
    ]);
  });
});
