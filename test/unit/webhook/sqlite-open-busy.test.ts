/**
 * A reader (webhook inbox, status) opening the inbox while another process holds it, as when `webhook listen` is
 * still creating its tables: the open waits for the lock like every statement after it, instead of failing at
 * once with "database is locked". The holder is another process, since node:sqlite waits on this thread.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore, sqliteFileName } from '../../../src/webhook/store/sqlite-store.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

describe('opening the SQLite inbox while another process holds it', () => {
  it('waits for the holder instead of failing with "database is locked"', async () => {
    const directory = join(temporaryFolder(), 'inbox');
    mkdirSync(directory, { mode: 0o700 });
    const file = join(directory, sqliteFileName);
    // A new file in its first transaction, not yet in WAL mode: what a starting receiver's store is for a moment.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const database = new DatabaseSync(${JSON.stringify(file)});
         database.exec('BEGIN EXCLUSIVE; CREATE TABLE early (x INTEGER)');
         process.stdout.write('holding\\n');
         setTimeout(() => { database.exec('COMMIT'); database.close(); }, 300);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(holder.stdout, 'data');
    const store = await SqliteStore.open(directory, {});
    await store.close();
    const [code] = (await once(holder, 'exit')) as [number];
    expect(code).toBe(0);
  });
});
