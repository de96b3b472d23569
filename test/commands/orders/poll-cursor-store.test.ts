/**
 * The orders cursor counts the orders of one store (a user test): a run of the profile against another store
 * (--base-url, B2BCTL_BASE_URL, a login that re-pointed the profile) read it and moved it on, exit 0, and the
 * profile's own store lost every order updated in between. The cursor now names its store; a run against another
 * one is refused before anything is fetched (exit 2, both named), and the cursor is left as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const ownStore = useScriptedPlatform();
const otherStore = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const token = 'a-pre-issued-token-0123456789';
const cursorFile = (configDir: string) => join(configDir, 'cursors', 'default.orders-poll.json');

function poll(configDir: string, baseUrl: string, args: string[] = []) {
  for (const store of [ownStore, otherStore])
    store.routes['GET /v1/orders'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  return runCommandLine(['orders', 'poll', '-o', 'ndjson', ...args], {
    configDir,
    env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: token },
    clock: new FakeClock(Date.UTC(2026, 10, 30, 20, 46, 0)),
  });
}

describe('orders poll: a cursor written for another store', () => {
  it('is refused before anything is fetched, naming both stores; the cursor is left as it was', async () => {
    const configDir = freshConfigDir();
    expect((await poll(configDir, ownStore.url, ['--since', '1h'])).code).toBe(0);
    const written = readFileSync(cursorFile(configDir), 'utf8');
    expect(JSON.parse(written)).toMatchObject({ profile: 'default', baseUrl: ownStore.url });

    const foreign = await poll(configDir, otherStore.url);
    expect(foreign.code).toBe(2);
    expect(foreign.stdout).toBe('');
    expect(foreign.stderr).toBe(
      `error: orders poll: the orders cursor ${cursorFile(configDir)} counts the orders of ${ownStore.url}, not of ${otherStore.url}, the store this run polls; nothing was emitted. A run from it would skip every order of ${otherStore.url} updated before 2026-11-30T20:45:58.000Z, and move it past orders of ${ownStore.url} no run has read. Poll this store with a cursor of its own (--cursor FILE, with --since for its first run); if the profile moved to this store for good, move the cursor aside and run again with --since.\n`,
    );
    expect(otherStore.received).toEqual([]);
    expect(readFileSync(cursorFile(configDir), 'utf8')).toBe(written);

    // The profile's own store goes on from it.
    expect((await poll(configDir, `${ownStore.url}/`)).code).toBe(0);
  });

  it('another store with a cursor of its own (--cursor FILE) runs beside it', async () => {
    const configDir = freshConfigDir();
    expect((await poll(configDir, ownStore.url, ['--since', '1h'])).code).toBe(0);
    const staging = join(configDir, 'staging.json');
    expect((await poll(configDir, otherStore.url, ['--cursor', staging, '--since', '1h'])).code).toBe(0);
    expect(JSON.parse(readFileSync(staging, 'utf8'))).toMatchObject({ baseUrl: otherStore.url });
  });

  it('a cursor of an older b2bctl (no store named) is taken, and stamped with the store at its next save', async () => {
    const configDir = freshConfigDir();
    expect((await poll(configDir, ownStore.url, ['--since', '1h'])).code).toBe(0);
    const older = JSON.parse(readFileSync(cursorFile(configDir), 'utf8')) as Record<string, unknown>;
    delete older.baseUrl;
    writeFileSync(cursorFile(configDir), JSON.stringify(older));
    expect((await poll(configDir, ownStore.url)).code).toBe(0);
    expect(JSON.parse(readFileSync(cursorFile(configDir), 'utf8'))).toMatchObject({ baseUrl: ownStore.url });
  });
});
