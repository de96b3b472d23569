/**
 * A 2xx to a customer create, update or status change whose body refuses it (`200 {"success":false,"errors":[…]}`),
 * from a scripted platform. It was reported done (`created`, "Updated customer undefined (undefined).", "is now
 * inactive"), exit 0, the platform's words nowhere (a fresh user test). It is `unknown` now, quoting them: a create is
 * never sent again in the run, and its resume asks the platform first; an update or status change may be sent again.
 * A 2xx with no body, `null` or `[]` shows no refusal and stays done, its line naming the document given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInFolder, runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const refusing = '{"success":false,"errors":[{"field":"document","message":"CPF já cadastrado"}]}';
const ana = '529.982.247-25';

const answer = (text: string | undefined) => answerJsonText(200, text);

/** `b2bctl ARGS` in a fresh folder holding FILES, against the scripted platform. */
const b2bctl = (args: readonly string[], files?: Record<string, string>) =>
  runInScriptedWorkspace(platform, args, files);

describe('customer create answered 200 with a body that refuses it', () => {
  it('unknown, quoting the platform, sent once; the resume asks before sending again', async () => {
    platform.routes['POST /v1/customer'] = answer(refusing);
    const { result, folder } = await b2bctl(['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    const report = join(folder, onlyReport(folder, 'people'));
    expect(readReport(report)).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringMatching(
          /^the create was answered HTTP 200 with a body that refuses it: document: CPF já cadastrado\. Whether customer \S+ was created is not known, so it was not sent again; a resume asks the platform before sending it\.$/,
        ) as unknown,
      }),
    ]);
    expect(result.stderr).not.toMatch(/\b1 created\b/);

    // The resume asks: a customer found with the file's e-mail is created, and nothing is posted again.
    const username = first?.split(',')[(header ?? '').split(',').indexOf('username')];
    platform.received.length = 0;
    platform.routes['PUT /v1/customer/*'] = answer(JSON.stringify({ id: 7, email: username }));
    const resumed = await runInFolder(platform, folder, ['customer', 'create', 'people.csv', '--resume', report]);
    expect(platform.received).not.toContain('POST /v1/customer');
    expect(platform.received[0]).toMatch(/^PUT \/v1\/customer\//);
    expect(resumed.code).toBe(0);
    expect(readReport(report)).toEqual([expect.objectContaining({ outcome: 'created', id: '7' })]);
  });

  it('the resume asked and answered with a refusing body: unknown again, never "exists", never posted', async () => {
    platform.routes['POST /v1/customer'] = answer(refusing);
    platform.routes['PUT /v1/customer/*'] = answer(refusing);
    const { folder } = await b2bctl(['customer', 'create', 'people.csv'], { 'people.csv': `${header}\n${first}\n` });
    const report = join(folder, onlyReport(folder, 'people'));
    platform.received.length = 0;
    const resumed = await runInFolder(platform, folder, ['customer', 'create', 'people.csv', '--resume', report]);
    // Not answered in words that tell: the run stops as when the question cannot be asked (exit 69).
    expect(resumed.code).toBe(69);
    expect(platform.received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//)]);
    expect(resumed.stderr).not.toMatch(/exists/);
    expect(resumed.stderr).toMatch(/refuses the question: document: CPF já cadastrado/);
  });

  it.each([
    ['no body', undefined],
    ['null', 'null'],
    ['[]', '[]'],
    ['a record', '{"id":41,"success":true}'],
  ])('%s: created, exit 0', async (_, text) => {
    platform.routes['POST /v1/customer'] = answer(text);
    const { result, folder } = await b2bctl(['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({ outcome: 'created', status: '200' }),
    ]);
  });
});

describe('customer update --document answered 200', () => {
  const update = ['customer', 'update', '--document', ana, '--set', 'name=Jo'];

  it('with a body that refuses it: unknown, exit 69, quoting the platform', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(refusing);
    const { result } = await b2bctl(update);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([`PUT /v1/customer/${ana}`]);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `error: Customer ${ana}: the platform answered HTTP 200 with a body that refuses the change: document: CPF já cadastrado; whether it was applied is not known (sending it again is harmless).`,
    );
    expect(result.stderr + result.stdout).not.toMatch(/Updated|undefined/);
  });

  it.each([
    ['[]', '[]', `Updated customer ${ana} (the platform answered without the record).`],
    ['null', 'null', `Updated customer ${ana} (the platform answered without the record).`],
    ['no body', undefined, `Updated customer ${ana} (the platform answered without the record).`],
    ['a record without an id', '{"name":"Jo"}', `Updated customer ${ana}.`],
    ['the record', '{"id":12,"document":"52998224725"}', `Updated customer 12 (${ana}).`],
  ])('with %s: updated, exit 0, the line naming the document given', async (_, text, line) => {
    platform.routes['PUT /v1/customer/*'] = answer(text);
    const { result } = await b2bctl(update);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(line);
    expect(result.stderr + result.stdout).not.toMatch(/undefined/);
  });
});

describe('customer update FILE answered 200 with a body that refuses it', () => {
  it('unknown rows quoting the platform, exit 1', async () => {
    platform.routes['PUT /v1/customer/*'] = answer(refusing);
    const { result, folder } = await b2bctl(['customer', 'update', 'changes.csv'], {
      'changes.csv': `document,name\n${ana},Jo\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual([`PUT /v1/customer/${ana}`]);
    expect(readReport(join(folder, onlyReport(folder, 'changes')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message:
          'the platform answered HTTP 200 with a body that refuses the change: document: CPF já cadastrado; whether it was applied is not known (sending it again is harmless)',
      }),
    ]);
  });
});

describe('customer status answered 200 with a body that refuses it', () => {
  const route = `PUT /v1/customer/updateStatus/${ana}/false`;

  it('DOC inactive: unknown, exit 69, never "is now inactive"', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(refusing);
    const { result } = await b2bctl(['customer', 'status', ana, 'inactive']);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([route]);
    expect(result.stderr).not.toMatch(/is now inactive/);
    expect(result.stderr).toMatch(
      /refuses the change: document: CPF já cadastrado; whether it was applied is not known/,
    );
  });

  it('a file: an unknown row, exit 1', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(refusing);
    const { result, folder } = await b2bctl(['customer', 'status', 'states.csv'], {
      'states.csv': `document,active\n${ana},false\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual([route]);
    expect(readReport(join(folder, onlyReport(folder, 'states')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringContaining('CPF já cadastrado') as unknown,
      }),
    ]);
  });

  it('DOC inactive answered [] : done, exit 0', async () => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer('[]');
    const { result } = await b2bctl(['customer', 'status', ana, 'inactive']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Customer ${ana} is now inactive.`);
  });
});
