/**
 * A create answered `429` asking to wait longer than b2bctl waits (a user test): the rows were `failed` with an
 * empty `status` cell, though docs/bulk-runs.md says `status` is the HTTP status the platform answered that record's
 * request with. A script filtering the report by status could not tell throttled rows from rows never answered. Now
 * the cell holds 429; the run still stops as the platform unavailable (exit 69).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');

describe('customer create answered 429 asking to wait 700 s', () => {
  it('failed, its status 429, exit 69; sent once', async () => {
    platform.routes['POST /v1/customer'] = (_request, _body, response) => {
      response.setHeader('retry-after', '700');
      answerJson(response, 429, { message: 'slow down' });
    };
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'create', 'e.csv'], {
      'e.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(69);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(readReport(join(folder, onlyReport(folder, 'e')))).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status: '429',
        message: expect.stringMatching(/answered HTTP 429 asking to wait 700 s \(Retry-After\)/) as unknown,
      }),
    ]);
  });
});
