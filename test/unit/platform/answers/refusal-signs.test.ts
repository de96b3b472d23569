/**
 * The signs of refusal a 2xx answer to one write may hold (refusalSignOf, what customers.ts reads a customer write's
 * answer with), one row each: a word dropped from a list, or a place no longer looked at, fails its row. The same
 * signs beside a stock batch's results are tested through readBatchAnswer and readQueueRefusal (stock-words.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { refusalSignOf } from '../../../../src/platform/answers/refusal-signs.js';

describe('refusalSignOf: a 2xx answer to one write that refuses it', () => {
  it.each([
    { success: false, errors: [{ field: 'document', message: 'CNPJ inválido' }] },
    { status: 'REJECTED' },
    { status: 'FAILED' },
    { status: 'PARTIAL_SUCCESS' },
    { status: 'COMPLETED_WITH_ERRORS' },
    { ok: false },
    { erro: 'Cliente inválido' },
    { erros: ['documento duplicado'] },
    { failed: 1 },
    { rejectedCount: 2 },
    { naoEncontrados: ['X'] },
    { recusados: ['X'] },
    { ignorados: 1 },
    { falhas: '1' },
    { data: { success: false } },
    { data: { errors: ['x'] } },
  ])('%j is a sign, shown as the platform wrote it', (body) => {
    expect(refusalSignOf(body)).toBe(JSON.stringify(body));
  });

  it.each([
    undefined,
    null,
    '',
    [],
    { id: 'C-1', document: '11222333000181' },
    { success: true, errors: [] },
    { status: 'ACTIVE' },
    { status: '' },
    { status: null },
    { failed: 0 },
    // A count written as digits is a number (a gateway's long as text): zero failures.
    { falhas: '0' },
    { failedCount: ' 00 ' },
    { noErrors: true },
    { withoutFailures: 3 },
    { errors: {} },
    { found: ['X'] },
  ])('%j is no sign', (body) => {
    expect(refusalSignOf(body)).toBeUndefined();
  });

  it('a sign in a long answer is shown cut at 300 characters', () => {
    const body = { success: false, message: 'x'.repeat(400) };
    expect(refusalSignOf(body)).toBe(`${JSON.stringify(body).slice(0, 299)}…`);
  });
});
