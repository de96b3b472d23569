/** Helpers of the order move tests: fresh orders in a sandbox, a nightly file of moves, the moves the sandbox took. */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/options.js';
import type { OrderDetail } from '../../src/sandbox/orders/store.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { movesOf } from '../../src/sandbox/orders/moves.js';
import { accessKeyCheckDigit } from '../../src/domain/nfe-key.js';
import { freshWorkDir } from './cli.js';
import { login, loginToDialect, runCommandLine, startLoggedInSandbox } from './command-line.js';
import { repoRoot, stopTestSandbox } from './sandbox.js';

export const sampleNfeFiles = [
  '35261011222333000181550010000012341123456787.xml',
  '35261012ABC34501DE35550010000012351123456785.xml',
  '43261000360305000104550010000099991876543210.xml',
] as const;
export const sampleKeys: readonly string[] = sampleNfeFiles.map((name) => name.slice(0, 44));
/**
 * A valid access key of its own for invoice number `number` (the first sample's emitter, state, month and series):
 * an NF-e belongs to one order, so a file that invoices many orders needs as many keys.
 */
export function uniqueKey(number: number): string {
  const first43 = `${sampleKeys[0]!.slice(0, 25)}${String(number).padStart(9, '0')}112345678`;
  return `${first43}${accessKeyCheckDigit(first43)}`;
}

/** The first sample key with its check digit changed. */
export const mistypedKey = `${sampleNfeFiles[0].slice(0, 43)}0`;

/** Copies the sample NF-e files into `folder/nfe/`. */
export function copySampleNfe(folder: string): void {
  for (const name of sampleNfeFiles) copyFileSync(join(repoRoot, 'samples', 'nfe', name), join(folder, 'nfe', name));
}

/**
 * Forgets the moves the sandbox took and the invoices of earlier tests (an NF-e key belongs to one order, so the
 * sample files are free again), and gives a fresh working folder with the sample NF-e in `nfe/`.
 */
export function freshMovesFolder(sandbox: RunningSandbox): string {
  movesOf(sandbox.state.orders).length = 0;
  for (const order of sandbox.state.orders.orders.values()) delete (order as { invoice?: unknown }).invoice;
  const folder = freshWorkDir();
  mkdirSync(join(folder, 'nfe'));
  copySampleNfe(folder);
  return folder;
}

/** A sandbox for a file of order move tests, and each test's folder and command line. */
export interface MovesFixture {
  /** The file's sandbox, logged in to before the first test. */
  readonly sandbox: RunningSandbox;
  /** The test's own working folder (freshMovesFolder): the sample NF-e in `nfe/`, no move taken yet. */
  readonly dir: string;
  /** `b2bctl ARGS` in process with the file's login, in the test's folder unless `cwd` says another. */
  run(args: readonly string[], cwd?: string): ReturnType<typeof runCommandLine>;
  /** The sandbox's record of order `id`, which a test reads or changes as the store's staff would. */
  storedOrder(id: number): OrderDetail;
  /** `count` new orders in the sandbox (newOrders). */
  newOrders(count: number): number[];
  /** The moves the sandbox accepted so far (acceptedMoves). */
  acceptedMoves(): string[];
  /** How many move requests reached the sandbox so far (moveRequests). */
  moveRequests(): number;
}

/**
 * One sandbox for the tests of a file (or of a describe block: one per dialect), logged in as an operator logs in
 * to its dialect, and a fresh moves folder for each test; closed after them with the temporary folders.
 */
export function useMovesSandbox(overrides: Partial<SandboxOptions> = {}): MovesFixture {
  const { dialect } = overrides;
  let started: { sandbox: RunningSandbox; configDir: string } | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    started = await startLoggedInSandbox(overrides, (sandbox, configDir) =>
      dialect ? loginToDialect(sandbox, dialect, configDir) : login(sandbox, configDir),
    );
  });
  afterAll(async () => {
    if (started) await stopTestSandbox(started.sandbox);
    started = undefined;
  });
  const current = () => {
    if (!started) throw new Error('useMovesSandbox(): the sandbox exists only inside a test');
    return started;
  };
  beforeEach(() => {
    dir = freshMovesFolder(current().sandbox);
  });
  const folder = () => {
    if (dir === undefined) throw new Error('useMovesSandbox(): the folder exists only inside a test');
    return dir;
  };
  return {
    get sandbox() {
      return current().sandbox;
    },
    get dir() {
      return folder();
    },
    run: (args, cwd) => runCommandLine(args, { configDir: current().configDir, cwd: cwd ?? folder() }),
    storedOrder: (id) => {
      const order = current().sandbox.state.orders.orders.get(id);
      if (!order) throw new Error(`the sandbox holds no order ${id}`);
      return order;
    },
    newOrders: (count) => newOrders(current().sandbox, count),
    acceptedMoves: () => acceptedMoves(current().sandbox),
    moveRequests: () => moveRequests(current().sandbox),
  };
}

/** Who the sample NF-e files are made out to (`dest`). */
export const sampleRecipient = { document: '00.360.305/0001-04', name: 'Comércio Exemplo Ltda' } as const;

/** The total (vNF) of the sample NF-e files. */
export const sampleTotal = 1234.56;

/**
 * `count` new orders (status AWAITING_PAYMENT), their ids in creation order, bought by the samples' recipient (an
 * NF-e made out to another buyer is not sent) for the samples' total (another total is warned about).
 */
export function newOrders(sandbox: RunningSandbox, count: number): number[] {
  return Array.from({ length: count }, () => {
    const order = sandbox.state.orders.create(sandbox.state.clock.now());
    order.partnerDocument = sampleRecipient.document;
    order.partnerCompanyName = sampleRecipient.name;
    order.customer = { ...sampleRecipient };
    order.totals.total = sampleTotal;
    return order.id;
  });
}

/** Every move the sandbox accepted, `id action`, in the order it took them. */
export function acceptedMoves(sandbox: RunningSandbox): string[] {
  return movesOf(sandbox.state.orders).map((move) => `${move.id} ${move.action}`);
}

export const moveHeader = 'order;action;erpNumber;invoiceXml;invoiceKey;carrier;trackingCode;trackingUrl;reason';

/**
 * A nightly file: for each order ready, invoice (an NF-e file for the first three, else a key alone, each its own),
 * ship; every fifth order is canceled after ready instead. Lines interleave orders as an ERP's export does (by time, not by order).
 * Returns the text (`;`, CRLF) and the moves it holds, `id action`, in file order.
 */
export function nightlyFile(orderIds: readonly number[], limit = Infinity): { text: string; moves: string[] } {
  const perOrder = orderIds.map((id, index) => {
    const rows: [string, string][] = [['ready', `${id};ready;PV-${id};;;;;;`]];
    if (index % 5 === 4) {
      rows.push(['cancel', `${id};cancel;;;;;;;cliente desistiu da compra`]);
      return rows.map(([action, row]) => ({ id, action, row }));
    }
    const invoice =
      index < 3
        ? `${id};invoice;;nfe/${sampleNfeFiles[index]};;;;;`
        : `${id};invoice;;;${uniqueKey(900_000 + index)};;;;`;
    rows.push(['invoice', invoice]);
    rows.push(['ship', `${id};ship;;;;Correios;SS123456785BR;https://rastreamento.correios.com.br/app/index.php;`]);
    return rows.map(([action, row]) => ({ id, action, row }));
  });
  // Round robin over the orders: the first move of every order, then the second, ...
  const lines: { id: number; action: string; row: string }[] = [];
  for (let step = 0; step < 3; step++)
    for (const rows of perOrder) if (rows[step] && lines.length < limit) lines.push(rows[step]!);
  return {
    text: `${[moveHeader, ...lines.map((line) => line.row)].join('\r\n')}\r\n`,
    moves: lines.map((line) => `${line.id} ${line.action}`),
  };
}

/** How many move requests (writes to the order routes) reached the sandbox so far, accepted or not. */
export function moveRequests(sandbox: RunningSandbox): number {
  let count = 0;
  for (const [route, times] of sandbox.state.requestCounts)
    if (/^(POST|PUT|PATCH) \/v1\/orders\//.test(route)) count += times;
  return count;
}
