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
    // The same signs under Portuguese keys, an HTTP status in the body, `accepted`, an envelope named `result`: each
    // was reported created, exit 0 (a fresh user test).
    { sucesso: false, mensagem: 'CPF já cadastrado' },
    { sucesso: 'false' },
    // A success flag in the words a file's cells take for "no" (a user test: reported created and updated, exit 0).
    { sucesso: 'não', mensagem: 'Telefone inválido' },
    { sucesso: 'nao' },
    { sucesso: 'N' },
    { ok: 'N', msg: 'cliente bloqueado' },
    { success: 'nao' },
    { situacao: 'ERRO', mensagem: 'E-mail inválido' },
    { situação: 'ERRO' },
    { Situacao: 'REJEITADO' },
    { aceito: false },
    { accepted: false, reason: 'queue full' },
    { status: 'UNPROCESSABLE_ENTITY', message: 'Property [phone] with value [x] does not pass validation' },
    { status: 'BAD_REQUEST' },
    { status: 'Bad Request' },
    { status: 'not found' },
    { status: 'conflict' },
    { status: 'Internal Server Error' },
    { status: 'SERVICE-UNAVAILABLE' },
    { status: '422 Unprocessable Entity' },
    { code: 400, message: 'bad' },
    { code: '409' },
    { code: 'CONFLICT' },
    { statusCode: 'BAD_REQUEST', message: 'bad' },
    { statusCode: 500 },
    { status_code: 422 },
    { httpStatus: 'UNPROCESSABLE_ENTITY' },
    { result: { success: false, message: 'x' } },
    { dados: { sucesso: false } },
    // The batch-level flag of what was asked says no, whatever its name (a fresh user test: accepted, exit 0).
    { updated: false, message: 'Nenhum item atualizado' },
    { processed: false },
    { queued: false, reason: 'queue full' },
    { enqueued: false },
    { atualizado: false },
    { created: false, message: 'Documento já cadastrado' },
    { cadastrado: false },
    { saved: false },
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
    true,
    { sucesso: true },
    { sucesso: 'S' },
    { ok: 'sim' },
    { sucesso: '0' },
    { situacao: 'ATIVO' },
    { accepted: true, batchId: 'b1' },
    { status: 'OK', code: 'C-400' },
    { code: 200 },
    { code: 'SKU-404' },
    { statusCode: 201 },
    // Counts: a batch of 404 items applied is no refusal.
    { sucesso: 404, falhas: 0 },
    { accepted: 450 },
    { result: { success: true } },
    // A record's own fields are its data: a customer's code of 450 in the store, a flag of its own (a fresh user test:
    // a stored customer reported unknown, exit 1).
    { id: 1001, code: 450, document: '52998224725' },
    { id: 1001, code: 500, email: 'ana@example.com', updated: false },
    { updated: true },
    { queued: 5 },
  ])('%j is no sign', (body) => {
    expect(refusalSignOf(body)).toBeUndefined();
  });

  it('the JSON false (a Java endpoint returning a boolean) is a sign', () => {
    expect(refusalSignOf(false)).toBe('false');
  });

  it('a sign in a long answer is shown cut at 300 characters', () => {
    const body = { success: false, message: 'x'.repeat(400) };
    expect(refusalSignOf(body)).toBe(`${JSON.stringify(body).slice(0, 299)}…`);
  });
});
