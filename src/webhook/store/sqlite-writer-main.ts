/**
 * The inbox's writer thread (src/webhook/store/sqlite-writer.ts): its own node:sqlite connection to the inbox file,
 * running each request as one transaction, in the order they come. Built as dist/sqlite-writer.js.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWriter, SqlValue, ToWriter, WriterStart } from './sqlite-writer.js';

// Node 22's and 26's notice that node:sqlite is experimental is kept off stderr, as the launcher keeps it off the
// main thread's (docs/decisions/0017-node-sqlite.md): the printers are wrapped before node:sqlite is loaded, which
// is why it is imported below and not with the imports above (they are loaded before this module runs).
const isSqliteNotice = (warning: Error) =>
  warning.name === 'ExperimentalWarning' && String(warning.message).startsWith('SQLite is an experimental');
for (const printer of process.listeners('warning')) {
  process.off('warning', printer);
  process.on('warning', (warning) => {
    if (!isSqliteNotice(warning)) printer(warning);
  });
}
const { DatabaseSync } = await import('node:sqlite');

const port = parentPort as NonNullable<typeof parentPort>;
const database = new DatabaseSync((workerData as WriterStart).file);
database.exec('PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
const insertKey = database.prepare('INSERT OR IGNORE INTO dedup (key, received_at) VALUES (?, ?)');
const keyKept = database.prepare('SELECT 1 AS kept FROM dedup WHERE key = ?');
const insertEvent = database.prepare(
  'INSERT INTO events (received_at, kind, delivery_id, key, flags, client_address, event) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const statements = new Map<string, ReturnType<typeof database.prepare>>();

function statementOf(sql: string) {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = database.prepare(sql)));
  return statement;
}

/**
 * Work that may be lost to a power cut and done again (retention, vacuum) commits without its own fsync: the next
 * durable commit's fsync of the log carries it to disk too.
 */
function withDurability<T>(durable: boolean, work: () => T): T {
  if (!durable) database.exec('PRAGMA synchronous = NORMAL');
  try {
    return work();
  } finally {
    if (!durable) database.exec('PRAGMA synchronous = FULL');
  }
}

function inTransaction<T>(work: () => T): T {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      database.exec('ROLLBACK');
    } catch {
      // The failed statement may have ended the transaction already: the error to tell is the one that failed it.
    }
    throw error;
  }
}

/** The answer to one request, once its transaction is committed. */
function answerOf(request: Exclude<ToWriter, { close: true }>): FromWriter {
  if ('append' in request) {
    const stored = inTransaction(() =>
      request.append.map(({ columns, formerKey }) => {
        if (formerKey !== null && keyKept.get(formerKey) !== undefined) return false;
        if (Number(insertKey.run(columns[3], columns[0]).changes) === 0) return false;
        insertEvent.run(...columns);
        return true;
      }),
    );
    return { id: request.id, stored };
  }
  if ('pragma' in request) {
    // Outside a transaction: a checkpoint cannot run inside one, and each vacuum slice commits on its own.
    const rows = withDurability(request.durable, () => database.prepare(`PRAGMA ${request.pragma}`).all());
    return { id: request.id, rows };
  }
  const changes = withDurability(request.durable, () =>
    inTransaction(() =>
      request.run.map(([sql, values]) => Number(statementOf(sql).run(...(values as SqlValue[])).changes)),
    ),
  );
  return { id: request.id, changes };
}

// oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
const send = (message: FromWriter) => port.postMessage(message);

port.on('message', (request: ToWriter) => {
  if ('close' in request) {
    database.close();
    send({ closed: true });
    port.close();
    return;
  }
  try {
    send(answerOf(request));
  } catch (error) {
    const { message, code, errcode, errstr } = error as Error & { code?: string; errcode?: number; errstr?: string };
    send({ id: request.id, error: { message: String(message), code, errcode, errstr } });
  }
});
