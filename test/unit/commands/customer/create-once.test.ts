/**
 * The decision a create answered 400 leads to, request by request, against a scripted platform: the wording of a 400
 * is never read, the platform is asked instead (the update route's 404 says "no customer has this document"). The
 * command tests show the same through the sandbox; these reach every branch, and run in mutation testing.
 */
import { describe, expect, it } from 'vitest';
import type { PendingRecord } from '../../../../src/bulk/pending-records.js';
import { createOnce, updateBodyOf } from '../../../../src/commands/customer/create.js';
import type { CustomerCreateBody } from '../../../../src/domain/customer.js';
import {
  AmbiguousRequestError,
  NothingSentError,
  PlatformError,
  StoppedAfterWriteError,
  UnavailableError,
} from '../../../../src/base/errors.js';
import { ProxyPageError } from '../../../../src/platform/answers/shapes.js';
import type { PlatformClient, PlatformRequest } from '../../../../src/platform/client.js';
import { appliedWriteRule } from '../../../../src/platform/applied-write.js';
import { AmbiguousAnswerError } from '../../../../src/platform/http-client.js';

const body: CustomerCreateBody = {
  documentType: 'cpf',
  document: '52998224725',
  username: ' Ana@Example.com ',
  phone: '11987654321',
  password: 'Senha#1',
  name: 'Ana',
  // Every part given: an address with parts left empty is completed from the stored record first (its own test).
  customerRegistrationAddress: {
    zipcode: '01310100',
    number: '10',
    complement: 'Apto 1',
    name: 'Casa',
    addressType: 'RESIDENTIAL',
    farmerStateRegistration: '123456789',
  },
} as CustomerCreateBody;

function entry(extra: Partial<PendingRecord<CustomerCreateBody>> = {}): PendingRecord<CustomerCreateBody> {
  return { line: 2, row: 3, key: '52998224725', value: body, json: '', original: ['cells'], ...extra };
}

type Answer = unknown | ((request: { method: string; path: string; body: unknown }) => unknown);

/**
 * A client whose answers are scripted in order; an Error is thrown, as the real client's send throws it (a write's
 * 5xx made MayHaveBeenAppliedError by its rule). Every request is kept.
 */
function scripted(...answers: Answer[]) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  const client = {
    send: async (request: PlatformRequest) => {
      const seen = { method: request.method, path: request.path, body: request.body };
      requests.push(seen);
      if (answers.length === 0) throw new Error(`unscripted request ${request.method} ${request.path}`);
      const next = answers.shift();
      const answer = typeof next === 'function' ? (next as (r: typeof seen) => unknown)(seen) : next;
      if (answer instanceof Error) throw appliedWriteRule(request, answer);
      return { status: 200, body: answer };
    },
    // The one setting a refusal reads: where the store lists its customer groups, named in the hint.
    session: { get: (key: string) => (key === 'paths.customerGroups' ? '/v1/customer-groups' : undefined) },
  } as unknown as PlatformClient;
  return { client, requests, said: () => requests.map((request) => `${request.method} ${request.path}`) };
}

const post = '/v1/customer';
const put = '/v1/customer/52998224725';
const refused = (status: number, message?: string) =>
  new PlatformError(status, { method: 'POST', url: `https://x.example${post}` }, message ? { message } : '');
const noSuchCustomer = () => new PlatformError(404, { method: 'PUT', url: `https://x.example${put}` }, '');
const lost = () => new AmbiguousRequestError('the answer was lost.');
const signal = new AbortController().signal;
const place = { line: 2, row: 3, key: '52998224725' };

describe('createOnce: a create answered', () => {
  it.each([
    [{ id: 7 }, 7],
    [{ id: 'c-7' }, 'c-7'],
    [{ id: { nested: 1 } }, undefined],
    [undefined, undefined],
  ])('2xx %j: created, id %s', async (answer, id) => {
    const { client, said } = scripted(answer);
    expect(await createOnce(client, entry(), false, signal)).toEqual({
      row: { ...place, outcome: 'created', status: 200, id },
      original: ['cells'],
    });
    expect(said()).toEqual([`POST ${post}`]);
  });

  it('an error that is not the platform`s (a bug, a closed socket) is thrown as it is', async () => {
    const failure = new TypeError('broken');
    await expect(createOnce(scripted(failure).client, entry(), false, signal)).rejects.toBe(failure);
  });

  it.each([401, 403])('%i: thrown, it stops the run (credentials)', async (status) => {
    const error = refused(status, 'no');
    await expect(createOnce(scripted(error).client, entry(), true, signal)).rejects.toBe(error);
  });

  it.each([
    [
      422,
      'Property [phone] with value [1] does not pass validation',
      'Property [phone] with value [1] does not pass validation',
    ],
    [404, undefined, `POST https://x.example${post} failed with HTTP 404`],
  ])(
    '%i: failed with its status and the platform`s message, else the error`s; nothing asked',
    async (status, message, expected) => {
      const { client, said } = scripted(refused(status, message));
      expect((await createOnce(client, entry(), true, signal)).row).toEqual({
        ...place,
        outcome: 'failed',
        status,
        message: expected,
      });
      expect(said()).toEqual([`POST ${post}`]);
    },
  );
});

describe('createOnce: a create answered 409 Conflict, the usual "already exists"', () => {
  it('no customer has the document: failed 409, the e-mail named, the platform asked once', async () => {
    const { client, said } = scripted(refused(409), noSuchCustomer());
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'failed',
      status: 409,
      message:
        'no customer has document 52998224725, so the e-mail  Ana@Example.com  is registered to another customer',
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('a resumed record registered with its e-mail: created, not failed', async () => {
    const { client } = scripted(refused(409, 'Cliente já cadastrado'), { id: 5, email: 'ana@example.com' });
    expect((await createOnce(client, entry({ unanswered: true }), false, signal)).row).toMatchObject({
      outcome: 'created',
      id: 5,
    });
  });
});

describe('createOnce: a create answered 5xx, which may come after the platform stored the customer', () => {
  it.each([500, 501, 507])('%i, the customer exists: created, never sent again', async (status) => {
    const { client, said } = scripted(refused(status), { id: 3, email: 'ana@example.com' });
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'created',
      status: 200,
      id: 3,
      message: `the create was answered HTTP ${status}; the customer exists, so it was not sent again`,
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('500, the customer exists with another e-mail: failed as registered before, with the status that came', async () => {
    const { client, said } = scripted(refused(500), { id: 3, email: 'other@example.com' });
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'failed',
      status: 500,
      message:
        'the create was answered HTTP 500, and document 52998224725 is already registered (registered with the e-mail other@example.com; pass --upsert to update existing customers)',
      fixedBy: 'upsert',
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('500, no customer when asked: unknown, never sent again', async () => {
    const { client, said } = scripted(refused(500, 'Internal Server Error'), noSuchCustomer());
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'unknown',
      status: 500,
      message: `POST https://x.example${post} failed with HTTP 500: Internal Server Error, which may come after the platform created the customer. No customer had document 52998224725 when asked, but the platform may still be creating it, so it was not sent again; a resume asks again before sending it.`,
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('500 with --upsert, the customer exists: the file goes as an update', async () => {
    const { client, said } = scripted(refused(500), { id: 4, email: 'ana@example.com' }, { id: 4 });
    expect((await createOnce(client, entry(), true, signal)).row).toMatchObject({
      outcome: 'updated',
      id: 4,
      message:
        "the create was answered HTTP 500 and the customer exists (created by it, or there before): the file's values went as an update",
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`, `PUT ${put}`]);
  });
});

describe('createOnce: a create whose answer was lost', () => {
  it('the customer exists with the file`s e-mail: created, never sent again', async () => {
    const { client, said } = scripted(lost(), { id: 1, email: 'ana@example.COM' });
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'created',
      status: 200,
      id: 1,
      message: 'the answer to the create was lost; the customer exists, so it was not sent again',
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('the customer exists with another e-mail: failed as registered before, with the fix, never sent again', async () => {
    // Reported created, exit 0, though the file's customer never reached the platform (a fresh user test).
    const { client, said } = scripted(lost(), { id: 1, email: 'other@example.com' });
    expect(await createOnce(client, entry(), false, signal)).toEqual({
      row: {
        ...place,
        outcome: 'failed',
        status: undefined,
        message:
          'the answer to the create was lost, and document 52998224725 is already registered (registered with the e-mail other@example.com; pass --upsert to update existing customers)',
        fixedBy: 'upsert',
      },
      original: ['cells'],
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it.each([
    ['no e-mail shown', { id: 1, name: 'Ana' }],
    ['an e-mail that is no text', { id: 1, email: 42 }],
    ['an answer that is no record', 'ok'],
  ])('the customer exists, %s: unknown, never sent again, never created without evidence', async (_, record) => {
    const { client, said } = scripted(lost(), record);
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'unknown',
      status: undefined,
      message:
        "the answer to the create was lost; customer 52998224725 exists, but the platform's answer shows no e-mail to tell whether this create made it or it was there before, so it was not sent again",
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('with --upsert, the customer exists: the file goes as an update, since it may have been there before', async () => {
    // An upsert run of the ERP's whole export: the customer existed, the create's answer (a 400) was lost. Taken for
    // "created by this run", the update was never sent and the run exited 0 (a fresh user test).
    const { client, requests } = scripted(lost(), { id: 4, email: 'ana@example.com' }, { id: 4 });
    const row = (await createOnce(client, entry(), true, signal)).row;
    expect(row).toMatchObject({ outcome: 'updated', status: 200, id: 4 });
    // Registered with the file's e-mail: nothing the file asks for was left undone.
    expect(row.message).toBe(
      "the answer to the create was lost and the customer exists (created by it, or there before): the file's values went as an update",
    );
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST ${post}`,
      `PUT ${put}`,
      `PUT ${put}`,
    ]);
    expect(requests[2]?.body).toEqual(updateBodyOf(body));
  });

  it('the customer does not exist when asked: unknown, never sent again', async () => {
    // The platform may still be working on the create (slower than --timeout): a second create could make it twice.
    const { client, said } = scripted(lost(), noSuchCustomer(), () => {
      throw new Error('a second create was sent');
    });
    expect(await createOnce(client, entry(), false, signal)).toEqual({
      row: {
        ...place,
        outcome: 'unknown',
        status: undefined,
        message:
          'the answer was lost. No customer had document 52998224725 when asked, but the platform may still be creating it, so it was not sent again; a resume asks again before sending it.',
      },
      original: ['cells'],
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it('a gateway`s 502, no customer when asked: unknown with the status that came', async () => {
    const answer = { status: 502, headers: {}, text: '', url: `https://x.example${post}`, attempts: 1 };
    const { client } = scripted(new AmbiguousAnswerError('POST answered HTTP 502.', answer), noSuchCustomer());
    expect((await createOnce(client, entry(), false, signal)).row).toMatchObject({ outcome: 'unknown', status: 502 });
  });
});

describe('createOnce: a create answered 400, without --upsert', () => {
  it('no customer has the document, and the platform says why: its words, and what the question established', async () => {
    const { client, requests } = scripted(refused(400, 'Bad request'), noSuchCustomer());
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'failed',
      status: 400,
      message:
        'Bad request; document 52998224725 is not registered on the store, so the refusal is about another field, such as the e-mail',
    });
    // The question is an update that changes nothing.
    expect(requests[1]).toEqual({ method: 'PUT', path: put, body: {} });
  });

  it('the same without words from the platform: the e-mail is taken by another (or the body was unreadable)', async () => {
    const { client } = scripted(refused(400), noSuchCustomer());
    expect((await createOnce(client, entry(), false, signal)).row.message).toBe(
      'no customer has document 52998224725, so the e-mail  Ana@Example.com  is registered to another customer (or the platform could not parse the body)',
    );
  });

  it('registered with another e-mail: failed, naming it, with the fix', async () => {
    const { client, said } = scripted(refused(400, 'Document in use'), { email: 'other@example.com' });
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'failed',
      status: 400,
      message:
        'Document in use (registered with the e-mail other@example.com; pass --upsert to update existing customers)',
      // Not written in the report: the feed-back command carries --upsert.
      fixedBy: 'upsert',
    });
    expect(said()).toEqual([`POST ${post}`, `PUT ${put}`]);
  });

  it.each([
    ['the same e-mail, in other case and spacing', { email: 'ana@example.COM' }],
    ['no e-mail shown', { name: 'Ana' }],
    ['an e-mail that is no text', { email: 42 }],
    ['an answer that is no record', 'ok'],
  ])('registered, %s: failed with what was established, no e-mail named', async (_, record) => {
    const { client } = scripted(refused(400), record);
    expect((await createOnce(client, entry(), false, signal)).row.message).toBe(
      'document 52998224725 is already registered (pass --upsert to update existing customers)',
    );
  });

  it('a resumed record the interrupted run may have created, registered with its e-mail: created, not failed', async () => {
    const { client } = scripted(refused(400), { id: 5, email: 'ana@example.com' });
    expect(await createOnce(client, entry({ unanswered: true }), false, signal)).toEqual({
      row: {
        ...place,
        outcome: 'created',
        id: 5,
        message: 'already registered with this e-mail: the interrupted run created it before its answer was recorded',
      },
      original: ['cells'],
    });
  });

  it('a resumed record registered with another e-mail: failed as any other', async () => {
    const { client } = scripted(refused(400), { id: 5, email: 'other@example.com' });
    expect((await createOnce(client, entry({ unanswered: true }), false, signal)).row).toMatchObject({
      outcome: 'failed',
      status: 400,
    });
  });
});

const withDeliveries = {
  ...body,
  addressList: [
    { zipcode: '40140650', number: '15', principal: true },
    { zipcode: '01310-100', number: '99', principal: false, complement: 'Fundos' },
  ],
} as CustomerCreateBody;
const storedAddresses = (second: Record<string, unknown>) => ({
  id: 9,
  email: 'ana@example.com',
  address: [{ zipcode: '40140-650', number: '15', principal: true }, second],
});

describe('createOnce: a create answered 400, with --upsert', () => {
  it('the update is the question: applied, the customer is updated with what the update route takes', async () => {
    const { client, requests } = scripted(refused(400), { id: 8 });
    expect((await createOnce(client, entry(), true, signal)).row).toEqual({
      ...place,
      outcome: 'updated',
      status: 200,
      id: 8,
      // The answer shows no e-mail: nothing says the file's is the customer's. The password, which no answer shows,
      // is never named: every create file has one.
      message: 'updated without username: the update route does not take it, so the customer keeps what it had',
    });
    expect(requests[1]).toEqual({ method: 'PUT', path: put, body: updateBodyOf(body) });
  });

  it('an address given in part: the stored record is read first, and the parts the file leaves empty go as stored', async () => {
    // The stored CEP and number: the same place, whose complement is kept.
    const partial = { ...body, customerRegistrationAddress: { zipcode: '01310-100', number: '10' } };
    const stored = {
      id: 5,
      email: 'ana@example.com',
      customerRegistrationAddress: { zipcode: '01310-100', number: '10', complement: 'Apto 1', name: 'Casa' },
    };
    const { client, requests } = scripted(refused(400), stored, { id: 5 });
    const row = (await createOnce(client, entry({ value: partial }), true, signal)).row;
    expect(row).toMatchObject({ outcome: 'updated', id: 5 });
    expect(row.message).toContain(
      'the registration address kept its stored complement, name, which the file left empty',
    );
    expect(requests.map((request) => request.body)).toEqual([
      partial,
      {},
      {
        ...updateBodyOf(partial),
        customerRegistrationAddress: { zipcode: '01310-100', number: '10', complement: 'Apto 1', name: 'Casa' },
      },
    ]);
  });

  it('the update answers 404: no customer has the document, failed as without --upsert', async () => {
    const { client } = scripted(refused(400), noSuchCustomer());
    expect((await createOnce(client, entry(), true, signal)).row).toMatchObject({
      outcome: 'failed',
      status: 400,
      message: expect.stringContaining('no customer has document 52998224725'),
    });
  });

  it('a resumed record registered with its own e-mail: updated all the same (it may have existed before the run)', async () => {
    const { client, requests } = scripted(refused(400), { id: 5, email: 'ana@example.com' }, { id: 5 });
    expect((await createOnce(client, entry({ unanswered: true }), true, signal)).row).toEqual({
      ...place,
      outcome: 'updated',
      status: 200,
      id: 5,
    });
    expect(requests.map((request) => request.body)).toEqual([body, {}, updateBodyOf(body)]);
  });

  it('a resumed record registered with another e-mail: updated after the question', async () => {
    const { client, requests } = scripted(refused(400), { id: 5, email: 'other@example.com' }, { id: 6 });
    expect((await createOnce(client, entry({ unanswered: true }), true, signal)).row).toEqual({
      ...place,
      outcome: 'updated',
      status: 200,
      id: 6,
      message: 'updated without username: the update route does not take it, so the customer keeps what it had',
    });
    expect(requests.slice(1)).toEqual([
      { method: 'PUT', path: put, body: {} },
      { method: 'PUT', path: put, body: updateBodyOf(body) },
    ]);
  });

  it.each([
    ['another CEP', { zipcode: '01024-000', number: '99', complement: 'Fundos' }],
    ['another number', { zipcode: '01310-100', number: '6', complement: 'Fundos' }],
    ['another complement', { zipcode: '01310-100', number: '99', complement: 'Frente' }],
  ])('a delivery address the stored list holds with %s: updated, naming addressList, kept', async (_, second) => {
    const { client } = scripted(refused(400), storedAddresses(second));
    const entryOut = await createOnce(client, entry({ value: withDeliveries }), true, signal);
    expect(entryOut.row.message).toBe(
      'updated without addressList: the update route does not take it, so the customer keeps what it had',
    );
    expect(entryOut).toMatchObject({ kept: ['addressList'] });
  });

  it('every delivery address of the file among the stored ones (CEP in either spelling): nothing named', async () => {
    const { client } = scripted(
      refused(400),
      storedAddresses({ zipcode: '01310-100', number: '99', complement: 'Fundos', principal: false }),
    );
    const entryOut = await createOnce(client, entry({ value: withDeliveries }), true, signal);
    expect(entryOut.row.message).toBeUndefined();
    expect(entryOut).not.toHaveProperty('kept');
  });

  it('an answer that shows no address list: addressList named, nothing says the file`s is the customer`s', async () => {
    const { client } = scripted(refused(400), { id: 9, email: 'ana@example.com' });
    expect((await createOnce(client, entry({ value: withDeliveries }), true, signal)).row.message).toBe(
      'updated without addressList: the update route does not take it, so the customer keeps what it had',
    );
  });

  it('a resumed record no customer has: failed, the e-mail taken by another', async () => {
    const { client } = scripted(refused(400), noSuchCustomer());
    expect((await createOnce(client, entry({ unanswered: true }), true, signal)).row.message).toContain(
      'no customer has document 52998224725',
    );
  });
});

describe('updateBodyOf', () => {
  it('keeps what the update route takes: no document (it is in the path), no password, no address list', () => {
    expect(
      updateBodyOf({
        ...body,
        addressList: [{ zipcode: '01310100' }],
        forceChangePassword: true,
      } as CustomerCreateBody),
    ).toEqual({
      phone: '11987654321',
      name: 'Ana',
      customerRegistrationAddress: body.customerRegistrationAddress,
    });
  });
});

/** A resumed record its run reported unknown (sent, its outcome not seen). */
const unknownBefore = () => entry({ unanswered: true, reportedUnknown: true });

describe('createOnce: a resumed record its run reported unknown (sent, its outcome not seen)', () => {
  // The run said "the resume asks the platform about it before sending it again"; it sent first, relying on the
  // platform refusing a duplicate it may still be storing (a fresh user test).

  it('found with the file`s e-mail: created, nothing sent', async () => {
    const { client, said } = scripted({ id: 5, email: 'ana@example.com' });
    expect(await createOnce(client, unknownBefore(), false, signal)).toEqual({
      row: {
        ...place,
        outcome: 'created',
        status: 200,
        id: 5,
        message: 'already registered with this e-mail: the interrupted run created it before its answer was recorded',
      },
      original: ['cells'],
    });
    expect(said()).toEqual([`PUT ${put}`]);
  });

  it('found with another e-mail: failed as registered before, with the fix, nothing sent', async () => {
    const { client, said } = scripted({ id: 5, email: 'other@example.com' });
    expect((await createOnce(client, unknownBefore(), false, signal)).row).toEqual({
      ...place,
      outcome: 'failed',
      status: undefined,
      message:
        "the interrupted run's create had no answer, and document 52998224725 is already registered (registered with the e-mail other@example.com; pass --upsert to update existing customers)",
      fixedBy: 'upsert',
    });
    expect(said()).toEqual([`PUT ${put}`]);
  });

  it('found with --upsert: the file goes as an update, nothing created', async () => {
    const { client, said } = scripted({ id: 5, email: 'ana@example.com' }, { id: 5 });
    expect((await createOnce(client, unknownBefore(), true, signal)).row).toMatchObject({
      outcome: 'updated',
      id: 5,
      message:
        "the interrupted run's create had no answer and the customer exists (created by it, or there before): the file's values went as an update",
    });
    expect(said()).toEqual([`PUT ${put}`, `PUT ${put}`]);
  });

  it('not found: sent, and created', async () => {
    const { client, said } = scripted(noSuchCustomer(), { id: 6 });
    expect((await createOnce(client, unknownBefore(), false, signal)).row).toEqual({
      ...place,
      outcome: 'created',
      status: 200,
      id: 6,
    });
    expect(said()).toEqual([`PUT ${put}`, `POST ${post}`]);
  });

  it('the platform cannot be asked: unknown again (thrown as ambiguous), nothing sent', async () => {
    const { client, said } = scripted(new UnavailableError('PUT kept failing with HTTP 503 after 4 attempts.'));
    const error = await createOnce(client, unknownBefore(), false, signal).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect((error as Error).message).toBe(
      'The interrupted run sent customer 52998224725 and could not tell whether it was created. Whether customer 52998224725 was created could not be asked either (PUT kept failing with HTTP 503 after 4 attempts); a resume asks again before sending it.',
    );
    expect(said()).toEqual([`PUT ${put}`]);
  });

  it('a record the report has no row for (a killed run) is sent first, as before: the look-up comes after a 400', async () => {
    const { client, said } = scripted({ id: 6 });
    expect((await createOnce(client, entry({ unanswered: true }), false, signal)).row.outcome).toBe('created');
    expect(said()).toEqual([`POST ${post}`]);
  });
});

/** A portal's page answering the question in the platform's place. */
const page = () =>
  new ProxyPageError({ method: 'PUT', url: `https://x.example${put}`, changesNothing: true }, 200, '<html></html>');
/** The question never sent: the run was stopping (Ctrl-C, or another request's failure). */
const notSent = () => new NothingSentError(`Interrupted before PUT https://x.example${put} was sent.`);

describe('createOnce: the question after a create that went out fails other than by a refusal (one rule: unknown)', () => {
  it('a page in the platform`s place: thrown to stop the run, carrying the unknown row and the page', async () => {
    const stop = page();
    const { client } = scripted(lost(), stop);
    const error = await createOnce(client, entry(), false, signal).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StoppedAfterWriteError);
    expect(error).toMatchObject({ stop, status: undefined, exitCode: stop.exitCode });
    expect((error as StoppedAfterWriteError).unknownOutcome).toMatch(
      /^the answer was lost\. Whether customer 52998224725 was created could not be asked \(PUT https:\/\/x\.example\/v1\/customer\/52998224725 answered HTTP 200 with an HTML page .*\); a resume asks again before sending it\.$/,
    );
  });

  it('a bug, or anything else the question throws: the same, the row first, then the run stops as it says', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    const { client } = scripted(lost(), bug);
    await expect(createOnce(client, entry(), false, signal)).rejects.toMatchObject({ stop: bug, exitCode: 1 });
  });

  it('the run stopping before the question went out: unknown, the run goes on stopping, never not sent', async () => {
    const { client } = scripted(lost(), notSent());
    expect((await createOnce(client, entry(), false, signal)).row).toEqual({
      ...place,
      outcome: 'unknown',
      message: `the answer was lost. Whether customer 52998224725 was created could not be asked: the run was stopping, so the question was not sent (Interrupted before PUT https://x.example${put} was sent); a resume asks again before sending it.`,
    });
  });

  it('a resumed record its run reported unknown, the question met by a page: the same, the earlier create named', async () => {
    const { client, said } = scripted(page());
    await expect(createOnce(client, unknownBefore(), false, signal)).rejects.toMatchObject({
      unknownOutcome: expect.stringMatching(
        /^The interrupted run sent customer 52998224725 and could not tell whether it was created\. Whether customer 52998224725 was created could not be asked \(PUT /,
      ) as unknown,
    });
    expect(said()).toEqual([`PUT ${put}`]);
  });

  it('a resumed record without a row, its create refused 400 and the question met by a page: unknown, not not sent', async () => {
    const { client } = scripted(refused(400, 'Documento já cadastrado'), page());
    await expect(createOnce(client, entry({ unanswered: true }), false, signal)).rejects.toMatchObject({
      status: 400,
      unknownOutcome: expect.stringMatching(
        /^The interrupted run sent customer 52998224725 and could not tell whether it was created; sent again, the create was refused \(POST https:\/\/x\.example\/v1\/customer failed with HTTP 400: Documento já cadastrado\)\. Whether customer 52998224725 was created could not be asked \(PUT /,
      ) as unknown,
    });
  });

  it('the same, the platform unavailable for the question: unknown, thrown as ambiguous (counted unavailable)', async () => {
    const { client } = scripted(refused(400), new UnavailableError('PUT kept failing with HTTP 503 after 4 attempts.'));
    await expect(createOnce(client, entry({ unanswered: true }), false, signal)).rejects.toBeInstanceOf(
      AmbiguousRequestError,
    );
  });
});
