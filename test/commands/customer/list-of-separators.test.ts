/**
 * A list cell holding separators and no name (`|`, ` | `), as an ERP writes when it joins empty group slots with `|`
 * (a user test). It was sent as an empty list, which replaces every group and price tag of the customer with none,
 * `1 updated`, exit 0; `--set 'customerGroupList=|'` and a `customer create --upsert` re-import alike. Now refused
 * before anything is sent, naming the field and what to write; an empty cell still leaves the list as it is, and a
 * JSON file's `[]` still removes every one on purpose.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace, scriptedWorkspace } from '../../support/scripted-workspace.js';
import { inlineCell, writeXlsx } from '../../support/workbook-writer.js';

const platform = useScriptedPlatform();
const company = '49.137.354/0001-71';

/** The bodies the update route received, in order. */
const sentBodies: unknown[] = [];
const updated: RouteHandler = (_request, body, response) => {
  sentBodies.push(JSON.parse(body));
  answerJson(response, 200, { id: 114, document: company });
};

async function update(args: readonly string[], files?: Record<string, string>) {
  sentBodies.length = 0;
  platform.routes['PUT /v1/customer/*'] = updated;
  return (await runInScriptedWorkspace(platform, ['customer', 'update', ...args], files)).result;
}

const noNames = (field: string, cellText: string) =>
  `field "${field}" holds "${cellText}", separators with no name between them: write the names (Atacado|Sul), or leave the cell empty to keep the customer's list as it is (sent, it would be an empty list, which removes every one; to remove them on purpose, send "${field}": [] in a JSON file)`;

describe('a list cell of separators only', () => {
  it('customer update: refused with file:line and the field, exit 65, nothing sent', async () => {
    const result = await update(['g2.csv'], {
      'g2.csv': `document;customerGroupList;priceRuleTags\r\n${company}; | ;|\r\n`,
    });
    expect(result.code).toBe(65);
    expect(platform.received).toEqual([]);
    expect(result.stderr).toContain(`g2.csv:2: ${noNames('customerGroupList', '|')}`);
    expect(result.stderr).toContain(`g2.csv:2: ${noNames('priceRuleTags', '|')}`);
  });

  it('an .xlsx cell: refused as the CSV one is, exit 65, nothing sent', async () => {
    sentBodies.length = 0;
    platform.routes['PUT /v1/customer/*'] = updated;
    const { dir, run } = scriptedWorkspace(platform);
    writeXlsx(
      join(dir, 'g2.xlsx'),
      `<row r="1">${inlineCell('A1', 'document')}${inlineCell('B1', 'customerGroupList')}</row>` +
        `<row r="2">${inlineCell('A2', company)}${inlineCell('B2', ' | ')}</row>`,
    );
    const result = await run(['customer', 'update', 'g2.xlsx']);
    expect(result.code).toBe(65);
    expect(platform.received).toEqual([]);
    expect(result.stderr).toContain(noNames('customerGroupList', '|'));
  });

  it('customer validate --update finds it, exit 65', async () => {
    const { result } = await runInScriptedWorkspace(platform, ['customer', 'validate', 'g2.csv', '--update'], {
      'g2.csv': `document;customerGroupList\r\n${company};||\r\n`,
    });
    expect(result.code).toBe(65);
    // validate lists the problems on stdout, as JSON lines when it is no terminal.
    expect(JSON.parse(result.stdout)).toEqual(
      expect.objectContaining({ line: 2, field: 'customerGroupList', message: noNames('customerGroupList', '||') }),
    );
  });

  it('--set customerGroupList=|: a usage error, exit 2, nothing sent', async () => {
    const result = await update(['--document', company, '--set', 'customerGroupList=|']);
    expect(result.code).toBe(2);
    expect(platform.received).toEqual([]);
    expect(result.stderr).toContain(
      `--set customerGroupList=| holds separators with no name between them; nothing was sent. Give the names (--set 'customerGroupList=Atacado|Sul'); to remove every one on purpose, send "customerGroupList": [] in a JSON file.`,
    );
  });

  it('customer create --upsert: the row is invalid, nothing sent', async () => {
    platform.routes['POST /v1/customer'] = updated;
    const header =
      'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number,customerGroupList';
    const { result } = await runInScriptedWorkspace(platform, ['customer', 'create', 'up2.csv', '--upsert'], {
      'up2.csv': `${header}\ncnpj,${company},Dora Ltda,dora@example.com,1133334444,Senha#3139,01310-100,10, | \n`,
    });
    expect(result.code).toBe(65);
    expect(platform.received).toEqual([]);
    expect(result.stderr).toContain(noNames('customerGroupList', '|'));
  });

  it('names around an empty slot still go, and an empty cell leaves the list out', async () => {
    const result = await update(['g.csv'], {
      'g.csv': `document;customerGroupList;priceRuleTags;name\r\n${company};Atacado||Sul;;Dora\r\n`,
    });
    expect(result.code).toBe(0);
    expect(sentBodies).toEqual([{ customerGroupList: ['Atacado', 'Sul'], name: 'Dora' }]);
  });

  it('a JSON file’s [] still removes every group on purpose', async () => {
    const result = await update(['clear.json'], {
      'clear.json': JSON.stringify([{ document: company, customerGroupList: [] }]),
    });
    expect(result.code).toBe(0);
    expect(sentBodies).toEqual([{ customerGroupList: [] }]);
  });
});
