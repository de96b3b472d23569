/**
 * 2xx answers to a customer write that do not show this write done, from a scripted platform (fresh user tests):
 * - another customer's record (another document: a caching gateway's or a path-normalising proxy's mix-up) was
 *   `updated`/`created`, joining that customer's id to the document asked ("Updated customer 77 (100.007.919-89).");
 *   it is `unknown` now, quoting both documents, compared by their digits;
 * - an upsert's update answered `200 {"success":false,…}` was `updated`, exit 0: `unknown`, as the plain update is;
 * - a create whose record shows the groups and price tags sent as `null` (the document's "no link") was `created`
 *   without a word: still created, with one warning a run and a report note on each such row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first, second] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const maria = '100.007.919-89';
const jose = '100.015.838-16';
const otherRecord = { id: 77, document: '529.982.247-25', name: 'Outro Cliente', email: 'outro@x.com' };

/** A route answering STATUS with BODY as JSON, or with no body when it is undefined. */
const answer = (status: number, body?: unknown) =>
  answerJsonText(status, body === undefined ? undefined : JSON.stringify(body));

/** `b2bctl ARGS` in a fresh folder holding FILES, against the scripted platform. */
const b2bctl = (args: readonly string[], files?: Record<string, string>) =>
  runInScriptedWorkspace(platform, args, files);

describe("a write answered with another customer's record", () => {
  it('update --document: unknown, exit 69, naming both documents; never "Updated customer 77"', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(200, otherRecord);
    const { result } = await b2bctl(['customer', 'update', '--document', maria, '--set', 'name=Fulano']);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([`PUT /v1/customer/${maria}`]);
    expect(result.stderr).not.toContain('Updated customer');
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `error: Customer ${maria}: the platform answered HTTP 200 with the record of another customer (document 529.982.247-25, not ${maria}); whether it was applied is not known (sending it again is harmless).`,
    );
  });

  it('update FILE: each row unknown, no id recorded, exit 1', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(200, otherRecord);
    const { result, folder } = await b2bctl(['customer', 'update', 'u.csv'], {
      'u.csv': `document,name\n${maria},Fulano\n${jose},Beltrano\n`,
    });
    expect(result.code).toBe(1);
    const rows = readReport(join(folder, onlyReport(folder, 'u')));
    expect(rows.map((row) => [row.key, row.outcome, row.id])).toEqual([
      [maria, 'unknown', ''],
      [jose, 'unknown', ''],
    ]);
    expect(rows[0]?.message).toContain(`the record of another customer (document 529.982.247-25, not ${maria})`);
  });

  it('create: unknown, not sent again, the other id nowhere in the report', async () => {
    platform.routes['POST /v1/customer'] = answer(200, otherRecord);
    const { result, folder } = await b2bctl(['customer', 'create', 'c.csv'], { 'c.csv': `${header}\n${first}\n` });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    const [row] = readReport(join(folder, onlyReport(folder, 'c')));
    expect(row).toMatchObject({
      outcome: 'unknown',
      id: '',
      message: `the create was answered HTTP 200 with the record of another customer (document 529.982.247-25, not ${maria}). Whether customer ${maria} was created is not known, so it was not sent again; a resume asks the platform before sending it.`,
    });
  });

  it('status DOC: unknown, exit 69, never "is now inactive"', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(200, otherRecord);
    const { result } = await b2bctl(['customer', 'status', maria, 'inactive']);
    expect(result.code).toBe(69);
    expect(result.stderr).not.toContain('is now inactive');
    expect(result.stderr).toContain(`the record of another customer (document 529.982.247-25, not ${maria})`);
  });

  it('its own document, written as digits only or in an envelope: done, compared by digits', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(200, { data: { id: 1001, document: '10000791989' } });
    const { result } = await b2bctl(['customer', 'update', '--document', maria, '--set', 'name=Fulano']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Updated customer 1001 (${maria}).`);
  });
});

describe('customer create --upsert, the update answered 200 with a body that refuses it', () => {
  it('unknown, exit 1, the platform quoted in the report (never "updated")', async () => {
    platform.routes['POST /v1/customer'] = answer(400, { message: 'Documento já cadastrado' });
    platform.routes['PUT /v1/customer/*'] = (request, body, response) => {
      const asked = decodeURIComponent((request.url ?? '').split('/').at(-1) ?? '');
      const address = { zipcode: '01310-100', number: '11', complement: 'Sala 1' };
      const record = { id: 5, document: asked, email: 'x@y.com', customerRegistrationAddress: address };
      const refusal = { success: false, errors: [{ field: 'phone', message: 'Telefone inválido' }] };
      answer(200, body.trim() === '{}' ? record : refusal)(request, body, response);
    };
    const { result, folder } = await b2bctl(['customer', 'create', 'c.csv', '--upsert'], {
      'c.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    // The create, the read of the stored record, the update.
    expect(platform.received).toEqual(['POST /v1/customer', `PUT /v1/customer/${maria}`, `PUT /v1/customer/${maria}`]);
    const [row] = readReport(join(folder, onlyReport(folder, 'c')));
    expect(row).toMatchObject({ outcome: 'unknown', status: '200' });
    expect(row?.message).toContain('with a body that refuses the change: phone: Telefone inválido');
    expect(result.stderr).not.toMatch(/\b1 updated\b/);
  });
});

describe('a create whose answer shows the groups and price tags sent as null', () => {
  it('created, one warning a run naming the fields, a report note on each such row', async () => {
    platform.routes['POST /v1/customer'] = (request, body, response) => {
      const sent = JSON.parse(body) as { document: string };
      answer(200, { id: 9, document: sent.document, customerGroupList: null, priceRuleTag: null })(
        request,
        body,
        response,
      );
    };
    const { result, folder } = await b2bctl(['customer', 'create', 'c.csv'], {
      'c.csv': `${header}\n${first}\n${second}\n`,
    });
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes("the platform's answer shows"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/warning: line \d: customer \S+ was created, but the platform's answer shows/);
    const rows = readReport(join(folder, onlyReport(folder, 'c')));
    expect(rows.map((row) => [row.key, row.outcome, row.message])).toEqual([
      [
        maria,
        'created',
        "created, but the platform's answer shows customerGroupList empty though the file gave them: the customer may be outside its groups or price tags; check them in the store",
      ],
      [
        jose,
        'created',
        "created, but the platform's answer shows customerGroupList and priceRuleTags empty though the file gave them: the customer may be outside its groups or price tags; check them in the store",
      ],
    ]);
  });

  it('groups shown as sent: no warning, no note', async () => {
    platform.routes['POST /v1/customer'] = answer(200, { id: 9, customerGroupList: [{ id: 1, name: 'Sul' }] });
    const { result, folder } = await b2bctl(['customer', 'create', 'c.csv'], { 'c.csv': `${header}\n${first}\n` });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("the platform's answer shows");
    expect(readReport(join(folder, onlyReport(folder, 'c')))[0]?.message).toBe('');
  });
});
