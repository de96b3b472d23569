import { describe, expect, it } from 'vitest';
import {
  AuthError,
  B2bctlError,
  ConfigError,
  describeError,
  ExitCode,
  exitCodeOf,
  InputError,
  InterruptedError,
  messageOfBody,
  parseValidationMessage,
  PartialFailureError,
  PlatformError,
  SignalledError,
  UnavailableError,
  UsageError,
} from '../../../src/base/errors.js';
import { crossing, rebuiltError } from '../../../src/bulk/validate-thread.js';

describe('parseValidationMessage', () => {
  it.each([
    {
      name: 'the platform wording',
      message: 'Property [document] with value [123] does not pass validation',
      expected: { field: 'document', value: '123' },
    },
    {
      name: 'an empty value',
      message: 'Property [email] with value [] does not pass validation',
      expected: { field: 'email', value: '' },
    },
    {
      name: 'a value holding brackets',
      message: 'Property [phones] with value [[11, 22]] does not pass validation',
      expected: { field: 'phones', value: '[11, 22]' },
    },
    {
      name: 'a value holding "] with value ["',
      message: 'Property [name] with value [a] with value [b] does not pass validation',
      expected: { field: 'name', value: 'a] with value [b' },
    },
    {
      name: 'a dotted field and a formatted CPF',
      message: 'Property [addressList.0.zipcode] with value [123.456.789-00] does not pass validation',
      expected: { field: 'addressList.0.zipcode', value: '123.456.789-00' },
    },
    {
      name: 'a value across lines',
      message: 'Property [note] with value [a\nb] does not pass validation',
      expected: { field: 'note', value: 'a\nb' },
    },
    {
      name: 'trailing detail after the wording',
      message: 'Property [document] with value [1] does not pass validation: CPF',
      expected: { field: 'document', value: '1' },
    },
    { name: 'another message', message: 'Customer already registered', expected: undefined },
    {
      name: 'the wording not at the start',
      message: 'Error: Property [document] with value [1] does not pass validation',
      expected: undefined,
    },
    { name: 'empty', message: '', expected: undefined },
  ])('$name', ({ message, expected }) => {
    expect(parseValidationMessage(message)).toEqual(expected);
  });
});

describe('PlatformError', () => {
  const request = { method: 'POST', url: 'https://api.example.com/v1/customer' };
  it.each([
    {
      status: 400,
      body: { message: 'Customer already registered' },
      exitCode: 1,
      message: 'POST https://api.example.com/v1/customer failed with HTTP 400: Customer already registered',
    },
    {
      status: 401,
      body: { error: 'invalid_token' },
      exitCode: 77,
      message: 'POST https://api.example.com/v1/customer failed with HTTP 401: invalid_token',
    },
    { status: 403, body: '', exitCode: 77, message: 'POST https://api.example.com/v1/customer failed with HTTP 403' },
    {
      status: 404,
      body: 'Not Found\n',
      exitCode: 1,
      message: 'POST https://api.example.com/v1/customer failed with HTTP 404: Not Found',
    },
    {
      status: 500,
      body: undefined,
      exitCode: 1,
      message: 'POST https://api.example.com/v1/customer failed with HTTP 500',
    },
    {
      status: 409,
      body: { error_description: 'duplicate', error: 'conflict' },
      exitCode: 1,
      message: 'POST https://api.example.com/v1/customer failed with HTTP 409: duplicate',
    },
    {
      status: 400,
      body: { message: 42 },
      exitCode: 1,
      message: 'POST https://api.example.com/v1/customer failed with HTTP 400',
    },
  ])('HTTP $status -> exit $exitCode', ({ status, body, exitCode, message }) => {
    const error = new PlatformError(status, request, body);
    expect(error.exitCode).toBe(exitCode);
    expect(exitCodeOf(error)).toBe(exitCode);
    expect(error.message).toBe(message);
    expect(error.status).toBe(status);
    expect(error.body).toBe(body);
    expect(error.request).toBe(request);
    expect(error.name).toBe('PlatformError');
  });

  it('reads field and value from a 422 body', () => {
    const body = JSON.parse(
      '{"status":"UNPROCESSABLE_ENTITY","message":"Property [document] with value [123.456.789-00] does not pass validation"}',
    );
    const error = new PlatformError(422, request, body);
    expect(error.field).toBe('document');
    expect(error.value).toBe('123.456.789-00');
    expect(error.platformMessage).toBe('Property [document] with value [123.456.789-00] does not pass validation');
    expect(error.exitCode).toBe(ExitCode.someRecordsFailed);
  });

  it('leaves field and value undefined for other messages', () => {
    const error = new PlatformError(422, request, { message: 'Invalid payload' });
    expect([error.field, error.value]).toEqual([undefined, undefined]);
  });

  it('keeps at most 500 characters of a text body, and shows where it was cut', () => {
    const error = new PlatformError(502, request, 'x'.repeat(2000));
    expect(error.platformMessage).toBe(`${'x'.repeat(500)}…`);
  });

  it('puts a JSON message over several lines on one, and reads its field and value as written', () => {
    const error = new PlatformError(422, request, {
      message: 'Property [address] with value [Rua A\nBloco 2] does not pass validation',
    });
    expect(error.platformMessage).toBe('Property [address] with value [Rua A Bloco 2] does not pass validation');
    expect(error.message).not.toContain('\n');
    expect(error.value).toBe('Rua A\nBloco 2');
  });
});

describe('exitCodeOf', () => {
  it.each([
    { name: 'UsageError', error: new UsageError('bad flag'), expected: 2 },
    { name: 'ConfigError', error: new ConfigError('bad file', '/tmp/config.json'), expected: 2 },
    {
      name: 'InputError',
      error: new InputError('bad row', { file: 'a.csv', line: 3, field: 'document' }),
      expected: 65,
    },
    { name: 'InputError without location', error: new InputError('bad row'), expected: 65 },
    {
      name: 'InputError missing:true',
      error: new InputError('no such file', { file: 'a.csv', missing: true }),
      expected: 66,
    },
    { name: 'AuthError', error: new AuthError('not logged in'), expected: 77 },
    { name: 'UnavailableError', error: new UnavailableError('down'), expected: 69 },
    { name: 'InterruptedError', error: new InterruptedError('stopped'), expected: 75 },
    { name: 'PartialFailureError', error: new PartialFailureError('2 failed'), expected: 1 },
    { name: 'plain Error', error: new Error('bug'), expected: 1 },
    { name: 'a thrown string', error: 'oops', expected: 1 },
    { name: 'undefined', error: undefined, expected: 1 },
  ])('$name -> $expected', ({ error, expected }) => {
    expect(exitCodeOf(error)).toBe(expected);
  });

  it('keeps the location of an InputError', () => {
    const error = new InputError('bad row', { file: 'customers.csv', line: 17, field: 'document' });
    expect([error.file, error.line, error.field, error.name]).toEqual(['customers.csv', 17, 'document', 'InputError']);
  });

  it('keeps the file of a ConfigError and the cause of a wrapped error', () => {
    const cause = new Error('ENOENT');
    const error = new ConfigError('bad file', '/tmp/config.json', { cause });
    expect(error.file).toBe('/tmp/config.json');
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(B2bctlError);
  });
});

describe('describeError', () => {
  const cause = new Error('socket hang up');
  it.each([
    {
      name: 'typed error, terse',
      error: new UsageError('Unknown profile "prod".'),
      verbose: false,
      expected: 'error: Unknown profile "prod".',
    },
    {
      name: 'plain error, terse, points at --verbose',
      error: new Error('boom'),
      verbose: false,
      expected: 'error: boom (run with --verbose for details)',
    },
    { name: 'a thrown string', error: 'boom', verbose: false, expected: 'error: boom' },
    { name: 'a thrown string, verbose', error: 'boom', verbose: true, expected: 'error: boom' },
  ])('$name', ({ error, verbose, expected }) => {
    expect(describeError(error, verbose)).toBe(expected);
  });

  it.each([
    { name: 'typed error', error: new UnavailableError('down', { cause }) },
    { name: 'plain error', error: new Error('boom', { cause }) },
  ])('$name: no stack without verbose, stack and cause with it', ({ error }) => {
    const terse = describeError(error, false);
    expect(terse).not.toContain('\n');
    expect(terse).not.toContain('    at ');
    expect(terse).not.toContain('socket hang up');
    const verbose = describeError(error, true);
    expect(verbose.startsWith(`error: ${error.message}\n`)).toBe(true);
    expect(verbose).toContain(error.stack);
    expect(verbose).toContain(`caused by: ${cause.stack}`);
  });

  it('prints a cause that is not an Error', () => {
    expect(describeError(new Error('boom', { cause: 'ECONNRESET' }), true)).toMatch(/\ncaused by: ECONNRESET$/);
  });
});

describe('PlatformError never repeats a refused password', () => {
  it('keeps the field and hides the value of a 422 about a password', () => {
    const error = new PlatformError(
      422,
      { method: 'POST', url: 'http://x/v1/customer' },
      {
        status: 'UNPROCESSABLE_ENTITY',
        message: 'Property [password] with value [Senha#1001] does not pass validation',
      },
    );
    expect(error.platformMessage).toBe('Property [password] with value [[redacted]] does not pass validation');
    expect(error.message).not.toContain('Senha#1001');
  });

  // The body comes masked already (the password sent is a known secret): `[[redacted]]]` was in every report row.
  it('a value masked already stays one value, without a stray bracket', () => {
    const error = new PlatformError(
      400,
      { method: 'POST', url: 'http://x/v1/customer' },
      { message: 'Property [password] with value [[redacted]] does not pass validation' },
    );
    expect(error.platformMessage).toBe('Property [password] with value [[redacted]] does not pass validation');
    expect(error.value).toBe('[redacted]');
  });
});

describe('messageOfBody: the store’s own words in every common refusal shape', () => {
  const said = 'pedido 70001 está SHIPPED: não pode mais ser movimentado';
  it.each([
    { name: 'a top-level message', body: { status: 'BAD_REQUEST', message: said }, expected: said },
    { name: 'a text body', body: `  ${said}\n`, expected: said },
    { name: 'an OAuth error_description', body: { error: 'invalid_grant', error_description: said }, expected: said },
    { name: 'an error string', body: { timestamp: 'x', status: 409, error: 'Conflict' }, expected: 'Conflict' },
    {
      name: 'an error object with a description',
      body: { error: { code: 'TRANSICAO_INVALIDA', description: said } },
      expected: said,
    },
    { name: 'an error object with a message', body: { error: { code: 'E1', message: said } }, expected: said },
    {
      name: 'errors[] with field and message',
      body: { errors: [{ field: 'status', message: said }] },
      expected: `status: ${said}`,
    },
    {
      name: 'errors[] of two, with and without field',
      body: { errors: [{ field: 'status', message: said }, { message: 'tente outro' }] },
      expected: `status: ${said}; tente outro`,
    },
    {
      name: 'errors[] in JSON:API style (title, detail)',
      body: { errors: [{ code: 'E422', title: 'Unprocessable Entity', detail: said }] },
      expected: said,
    },
    { name: 'errors as a list of texts', body: { errors: [said] }, expected: said },
    {
      name: 'errors as a map of field to messages, under a general message',
      body: { message: 'The given data was invalid.', errors: { status: [said] } },
      expected: `The given data was invalid: status: ${said}`,
    },
    {
      name: 'RFC 7807 problem details',
      body: { type: 'about:blank', title: 'Conflict', status: 409, detail: said, instance: '/v1/orders/1/status' },
      expected: said,
    },
    {
      name: 'problem details with a title only',
      body: { type: 'about:blank', title: 'Conflict' },
      expected: 'Conflict',
    },
    { name: 'no words at all', body: { status: 422, errors: [{ code: 'E1' }] }, expected: undefined },
    { name: 'an empty object', body: {}, expected: undefined },
    { name: 'an array', body: [said], expected: undefined },
  ])('$name', ({ body, expected }) => {
    expect(messageOfBody(body)).toBe(expected);
    const error = new PlatformError(422, { method: 'PUT', url: 'https://api.example.com/v1/orders/1/status' }, body);
    expect(error.platformMessage).toBe(expected);
    expect(error.message).toBe(
      `PUT https://api.example.com/v1/orders/1/status failed with HTTP 422${expected ? `: ${expected}` : ''}`,
    );
  });

  // A Brazilian platform's words under Portuguese names: dropped before, and b2bctl's guess put in their place (a
  // fresh user test).
  it.each([
    { name: 'mensagem', body: { mensagem: 'Senha fraca' }, expected: 'Senha fraca' },
    { name: 'erro as text', body: { erro: 'Senha fraca' }, expected: 'Senha fraca' },
    { name: 'erro as an object', body: { erro: { codigo: 'E1', mensagem: said } }, expected: said },
    { name: 'detalhe', body: { status: 409, detalhe: said }, expected: said },
    { name: 'motivo', body: { aceito: false, motivo: said }, expected: said },
    { name: 'a reason', body: { accepted: false, reason: 'queue full' }, expected: 'queue full' },
    {
      name: 'erros[] with campo and mensagem',
      body: { erros: [{ campo: 'phone', mensagem: 'inválido' }] },
      expected: 'phone: inválido',
    },
    {
      name: 'erros[] naming a SKU, beside a general mensagem',
      body: { mensagem: 'Lote rejeitado', erros: [{ codigo: 'SKU-00001', mensagem: 'Produto inexistente' }] },
      expected: 'Lote rejeitado: Produto inexistente',
    },
    {
      name: 'the document 422 with mensagem',
      body: { status: 'UNPROCESSABLE_ENTITY', mensagem: 'Propriedade [phone] inválida' },
      expected: 'Propriedade [phone] inválida',
    },
  ])('in Portuguese: $name', ({ body, expected }) => {
    expect(messageOfBody(body)).toBe(expected);
    const error = new PlatformError(400, { method: 'POST', url: 'https://api.example.com/v1/customer' }, body);
    expect(error.message).toBe(`POST https://api.example.com/v1/customer failed with HTTP 400: ${expected}`);
  });

  it.each([
    [{ erros: [{ campo: 'phone', mensagem: 'inválido' }] }, 'phone'],
    [
      {
        errors: [
          { field: 'phone', message: 'a' },
          { field: 'phone', message: 'b' },
        ],
      },
      'phone',
    ],
    [
      {
        errors: [
          { field: 'phone', message: 'a' },
          { field: 'email', message: 'b' },
        ],
      },
      undefined,
    ],
    [{ errors: [{ message: 'a' }] }, undefined],
  ])('the one field an errors list names is the refusal’s field: %j', (body, field) => {
    expect(new PlatformError(422, { method: 'POST', url: 'https://x.example/v1/customer' }, body).field).toBe(field);
  });

  it('hides a password echoed in a nested shape too', () => {
    const body = {
      errors: [{ field: 'password', message: 'Property [password] with value [Senha#1] does not pass validation' }],
    };
    expect(messageOfBody(body)).not.toContain('Senha#1');
  });
});

// A hang-up (a dropped ssh connection) stops as SIGTERM does; at a prompt, where there is nothing to finish, it ends
// with 128 + its number as a shell expects, and keeps that code when it crosses from a validation thread.
describe('SignalledError', () => {
  it.each([
    ['SIGHUP', 129],
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])('%s at a prompt: exit %i, across a thread too', (signal, code) => {
    const error = new SignalledError(`${signal} at the prompt: stopped; nothing was changed.`, signal);
    expect(error.exitCode).toBe(code);
    expect(exitCodeOf(rebuiltError(crossing(error)))).toBe(code);
  });
});
