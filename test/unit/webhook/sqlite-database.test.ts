import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../../src/webhook/store/sqlite-database.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

// The adapter gives the SQLite store better-sqlite3's calls over node:sqlite: these are the behaviours the store
// relies on (a transaction that commits or undoes all of its work, savepoints inside one, rows as objects).

const opened: SqliteDatabase[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) database.close();
  removeReceiverFolders();
});

async function openTestDatabase(): Promise<SqliteDatabase> {
  const opening = await SqliteDatabase.open(join(temporaryFolder(), 'test.sqlite'));
  opened.push(opening);
  opening.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)');
  return opening;
}

const names = (db: SqliteDatabase) =>
  (db.prepare('SELECT name FROM items ORDER BY id').all() as { name: string }[]).map((row) => row.name);

describe('SqliteDatabase', () => {
  it('runs, gets, lists and iterates with positional values, rows as plain objects', async () => {
    const db = await openTestDatabase();
    const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
    expect(insert.run('a')).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(insert.run('b')).toEqual({ changes: 1, lastInsertRowid: 2 });
    expect(db.prepare('SELECT id, name FROM items WHERE name = ?').get('b')).toEqual({ id: 2, name: 'b' });
    expect(db.prepare('SELECT id FROM items WHERE name = ?').get('z')).toBeUndefined();
    expect(db.prepare('SELECT id FROM items WHERE id > ? ORDER BY id').all(0)).toEqual([{ id: 1 }, { id: 2 }]);
    expect([...db.prepare('SELECT name FROM items ORDER BY id').iterate()]).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(db.prepare('DELETE FROM items WHERE id IN (?, ?)').run(1, 2).changes).toBe(2);
  });

  it('commits a transaction, and undoes all of it when its body throws', async () => {
    const db = await openTestDatabase();
    const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
    const insertAll = db.transaction((values: string[]) => values.map((value) => insert.run(value).changes));
    expect(insertAll(['a', 'b'])).toEqual([1, 1]);
    // 'a' again breaks the UNIQUE constraint after 'c' went in: 'c' goes too.
    expect(() => insertAll.immediate(['c', 'a'])).toThrow(/UNIQUE constraint failed/);
    expect(names(db)).toEqual(['a', 'b']);
    expect(db.inTransaction).toBe(false);
    insertAll.deferred(['d']);
    insertAll.exclusive(['e']);
    expect(names(db)).toEqual(['a', 'b', 'd', 'e']);
  });

  it('runs a transaction inside another as a savepoint: the inner failure undoes only the inner work', async () => {
    const db = await openTestDatabase();
    const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
    const inner = db.transaction((name: string) => insert.run(name));
    const outer = db.transaction(() => {
      insert.run('outer');
      expect(db.inTransaction).toBe(true);
      expect(() => inner('outer')).toThrow(/UNIQUE/);
      inner('inner');
    });
    outer();
    expect(names(db)).toEqual(['outer', 'inner']);
  });

  it('refuses a body that returns a promise, and commits nothing of it', async () => {
    const db = await openTestDatabase();
    const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
    const asynchronous = db.transaction(async () => insert.run('a'));
    expect(() => asynchronous()).toThrow(/cannot return a promise/);
    expect(names(db)).toEqual([]);
  });

  it('answers a pragma as rows, or with simple as its value', async () => {
    const db = await openTestDatabase();
    db.pragma('journal_mode = WAL');
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    db.pragma('busy_timeout = 5000');
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('opens an existing file only, with fileMustExist or readonly, and a read-only one refuses writes', async () => {
    const folder = temporaryFolder();
    const missing = join(folder, 'missing.sqlite');
    await expect(SqliteDatabase.open(missing, { fileMustExist: true })).rejects.toThrow(/unable to open database file/);
    await expect(SqliteDatabase.open(missing, { readonly: true })).rejects.toThrow(/unable to open database file/);
    expect(existsSync(missing)).toBe(false);
    const file = join(folder, 'present.sqlite');
    const writer = await SqliteDatabase.open(file);
    writer.exec('CREATE TABLE t (x)').close();
    expect(writer.open).toBe(false);
    const reader = await SqliteDatabase.open(file, { readonly: true });
    opened.push(reader);
    expect(() => reader.exec('INSERT INTO t VALUES (1)')).toThrow(/readonly/);
    expect(reader.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });
});
