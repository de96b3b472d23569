import Fastify, { type FastifyRequest } from 'fastify';
import { isFederativeUnit } from '../domain/brazil-codes.js';
import { type ItemTaxes, type TaxItem, taxTotals } from '../domain/tax/compute.js';
import type { BuyerKind } from '../domain/tax/rules.js';
import { listenOn } from '../http-server/listen.js';
import { sameSecret } from '../http-server/same-secret.js';
import { baseUrlOf, listeningPort, type RunningServer } from '../http-server/serve.js';
import { NoTaxRowError, quoteItems } from './quote-items.js';
import { readTaxRequest, type TaxShape } from './shape.js';
import { checkTaxItem } from './table-file.js';
import type { WatchedTaxTable } from './watched-table.js';

/** How the platform proves it is the platform: a fixed bearer token or Basic credential, compared in constant time. */
export type TaxAuth =
  { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string };

export interface TaxServerOptions {
  host: string;
  port: number;
  /** The callback's route, such as /tax. */
  path: string;
  shape: TaxShape;
  table: WatchedTaxTable;
  auth: TaxAuth;
  log: { warn(line: string): void };
}

/** What /healthz counts. */
export interface TaxServerCounts {
  answered: number;
  refused: number;
  noRow: number;
}

/** Starts `tax serve`: the callback's route and /healthz. */
export async function startTaxServer(options: TaxServerOptions): Promise<RunningServer & { counts: TaxServerCounts }> {
  const counts: TaxServerCounts = { answered: 0, refused: 0, noRow: 0 };
  // A cart is small: 1 MB holds thousands of items; anything larger is not a cart.
  const app = Fastify({ logger: false, bodyLimit: 1_048_576, forceCloseConnections: 'idle' });
  app.get('/healthz', async () => ({ status: 'ok', table: options.table.tableStatus(), ...counts }));
  app.post(options.path, async (request, reply) => {
    if (!authorised(request, options.auth)) {
      counts.refused++;
      return reply
        .code(401)
        .header('www-authenticate', options.auth.kind === 'basic' ? 'Basic realm="b2bctl tax"' : 'Bearer')
        .send({ error: 'unauthorized', message: 'The callback needs its credential.' });
    }
    const answer = answerRequest(request.body, options);
    if ('status' in answer) {
      if (answer.status === 422) counts.noRow++;
      else counts.refused++;
      return reply.code(answer.status).send(answer.body);
    }
    counts.answered++;
    return answer.body;
  });
  await listenOn(app, options.host, options.port);
  const port = listeningPort(app.server.address(), options.port);
  return { url: baseUrlOf('http', options.host, port), counts, close: () => app.close() };
}

type Answer = { body: Record<string, unknown> } | { status: 400 | 422; body: Record<string, unknown> };

const refuse = (message: string): Answer => ({ status: 400, body: { error: 'bad-request', message } });

/** The answer to one callback: the taxes, or why not, in the answer's error shape. */
function answerRequest(body: unknown, options: TaxServerOptions): Answer {
  const request = readTaxRequest(body, options.shape.request);
  if (typeof request === 'string') return refuse(request);
  const from = request.from.toUpperCase();
  const to = request.to.toUpperCase();
  if (!isFederativeUnit(from) || !isFederativeUnit(to))
    return refuse(`origin "${request.from}" and destination "${request.to}" must be states (UF) such as SP`);
  const buyer = buyerOf(request.paysIcms);
  if (buyer === undefined)
    return refuse(`whether the buyer pays ICMS must be true or false, not ${JSON.stringify(request.paysIcms)}`);
  const items: TaxItem[] = [];
  for (const [index, values] of request.items.entries()) {
    const item = checkTaxItem(values);
    if (typeof item === 'string') return refuse(`item ${index + 1}: ${item}`);
    items.push(item);
  }
  let quoted: ItemTaxes[];
  try {
    quoted = quoteItems(options.table.current(), items, { from, to, buyer });
  } catch (error) {
    if (!(error instanceof NoTaxRowError)) throw error;
    options.log.warn(`tax callback refused: ${error.message}`);
    return { status: 422, body: { error: 'no-tax-row', message: error.message, missing: error.missing } };
  }
  return { body: { [options.shape.answer.items]: quoted, [options.shape.answer.totals]: taxTotals(quoted) } };
}

function buyerOf(paysIcms: unknown): BuyerKind | undefined {
  if (paysIcms === true || paysIcms === 'true' || paysIcms === 1) return 'taxpayer';
  if (paysIcms === false || paysIcms === 'false' || paysIcms === 0) return 'non-taxpayer';
  return undefined;
}

function authorised(request: FastifyRequest, auth: TaxAuth): boolean {
  const header = request.headers.authorization ?? '';
  switch (auth.kind) {
    case 'none':
      return true;
    case 'bearer': {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      return sameSecret(match?.[1] ?? '', auth.token);
    }
    case 'basic': {
      const match = /^Basic\s+(\S+)$/i.exec(header);
      const [user = '', ...password] = Buffer.from(match?.[1] ?? '', 'base64')
        .toString('utf8')
        .split(':');
      // Both compared, always: which one was wrong is not told by the time taken.
      const sameUser = sameSecret(user, auth.user);
      return sameSecret(password.join(':'), auth.password) && sameUser;
    }
  }
}
