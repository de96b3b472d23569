import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inboxFileName } from '../../../src/webhook/inbox.js';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { collect, freshConfigDir, runCli, spawnCli } from '../../support/cli.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import {
  clientId,
  clientSecret,
  inboxOnDisk,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(() => {
  removeTemporaryFolders();
  removeReceiverFolders();
});

const secretEnv = { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret };
const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));

/** Starts `webhook listen --port 0` and resolves with its URL, read from the first stdout line. */
async function listen(
  inbox: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; url: string; done: ReturnType<typeof collect> }> {
  const child = spawnCli(
    ['webhook', 'listen', '--port', '0', '--client-id', clientId, '--inbox', inbox, ...extra],
    freshConfigDir(),
    secretEnv,
  );
  const done = collect(child);
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline >= 0) resolve(text.slice(0, newline));
    });
    child.on('close', (code) => reject(new Error(`listen exited ${code} before printing its URL`)));
  });
  return { child, url, done };
}

/** Keeps `workers` senders posting distinct orders until stopped; resolves with the ids answered 2xx. */
function load(
  url: string,
  token: string,
  workers: number,
): { stop: () => void; acknowledged: Promise<number[]>; count: () => number } {
  const acknowledged: number[] = [];
  let next = 1;
  const run = { stopped: false };
  const worker = async () => {
    while (!run.stopped) {
      const id = next++;
      try {
        const answer = await postEvent(url, 'orders', { ...order, id }, token);
        if (answer.status === 200) acknowledged.push(id);
      } catch {
        return; // the receiver was killed: this event was never acknowledged
      }
    }
  };
  const all = Promise.all(Array.from({ length: workers }, worker)).then(() => acknowledged);
  return { stop: () => (run.stopped = true), acknowledged: all, count: () => acknowledged.length };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('webhook listen (built binary)', () => {
  it('loses no acknowledged event to a SIGKILL under load, and sets a torn tail aside on restart', async () => {
    const inbox = temporaryFolder();
    const first = await listen(inbox);
    const token = await receiverToken(first.url);
    const traffic = load(first.url, token, 32);
    await until(() => traffic.count() >= 300);
    first.child.kill('SIGKILL');
    traffic.stop();
    const acknowledged = await traffic.acknowledged;
    expect((await first.done).signal).toBe('SIGKILL');
    const stored = new Set(inboxOnDisk(inbox).map((record) => (record.event as { id: number }).id));
    for (const id of acknowledged) expect(stored.has(id)).toBe(true);
    // A kill during a write leaves half a line; make sure there is one, whether or not this kill left it.
    appendFileSync(join(inbox, inboxFileName), '{"receivedAt":"2026-11-23T06:00:00.000Z","kind":"orders","ev');

    const second = await listen(inbox);
    const again = await postEvent(
      second.url,
      'orders',
      { ...order, id: acknowledged[0] },
      await receiverToken(second.url),
    );
    expect(await again.json()).toEqual({ status: 'duplicate' });
    second.child.kill('SIGTERM');
    const result = await second.done;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/torn line of \d+ bytes .* set aside in .*torn-/);
    expect(readdirSync(inbox).some((name) => name.startsWith('torn-'))).toBe(true);
    const afterRestart = inboxOnDisk(inbox); // every line parses
    expect(afterRestart.length).toBeGreaterThanOrEqual(acknowledged.length);
  });

  it('on SIGTERM stops accepting, finishes in-flight events and exits 0; inbox and replay read what it stored', async () => {
    const inbox = temporaryFolder();
    const running = await listen(inbox);
    const token = await receiverToken(running.url);
    const traffic = load(running.url, token, 8);
    await until(() => traffic.count() >= 50);
    running.child.kill('SIGTERM');
    const result = await running.done;
    traffic.stop();
    const acknowledged = await traffic.acknowledged;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Webhook receiver stopped.');
    const stdoutLines = result.stdout.trim().split('\n');
    expect(stdoutLines[0]).toBe(running.url);
    // One ndjson line per stored event on a piped stdout.
    expect(stdoutLines.length - 1).toBe(inboxOnDisk(inbox).length);
    expect(inboxOnDisk(inbox).length).toBe(acknowledged.length);

    const config = freshConfigDir();
    const listed = await runCli(['webhook', 'inbox', '--inbox', inbox, '--kind', 'orders'], { configDir: config });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(acknowledged.length);
    const output = join(inbox, 'replayed.ndjson');
    const replayed = await runCli(['webhook', 'replay', '--inbox', inbox, '--exec', `cat >> ${output}`], {
      configDir: config,
    });
    expect(replayed.code).toBe(0);
    expect(readFileSync(output, 'utf8').trim().split('\n')).toHaveLength(acknowledged.length);
  });

  it.each([
    [[], {}, 2, /B2BCTL_WEBHOOK_CLIENT_SECRET or pass --client-secret-file/],
    [
      ['--client-secret-file', '/nonexistent/secret'],
      {},
      66,
      /Cannot read the client secret file \/nonexistent\/secret \(ENOENT\)/,
    ],
    [['--client-secret', 'on-argv'], secretEnv, 2, /unknown option '--client-secret'/],
    [['--tls-cert', '/nonexistent/cert.pem'], secretEnv, 2, /TLS needs both --tls-cert FILE and --tls-key FILE/],
  ])('refuses %j without listening', async (args, env, code, message) => {
    const result = await runCli(
      ['webhook', 'listen', '--port', '0', '--client-id', clientId, '--inbox', temporaryFolder(), ...args],
      {
        configDir: freshConfigDir(),
        env,
      },
    );
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('webhook trigger reports each step and exits 77 on refused credentials, 69 when nothing listens', async () => {
    const inbox = temporaryFolder();
    const running = await listen(inbox);
    const config = freshConfigDir();
    for (const style of ['basic', 'body', 'headers']) {
      const ok = await runCli(
        ['webhook', 'trigger', 'customers', '--url', running.url, '--style', style, '--client-id', clientId],
        {
          configDir: config,
          env: secretEnv,
        },
      );
      expect(ok.code).toBe(0);
      expect(
        ok.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { step: string; status: number }),
      ).toMatchObject([
        { step: 'token', status: 200 },
        { step: 'event', status: 200 },
      ]);
    }
    const secretFile = join(inbox, 'wrong-secret');
    writeFileSync(secretFile, 'wrong\n');
    const refused = await runCli(
      [
        'webhook',
        'trigger',
        'orders',
        '--url',
        running.url,
        '--client-id',
        clientId,
        '--client-secret-file',
        secretFile,
      ],
      { configDir: config },
    );
    expect(refused.code).toBe(77);
    expect(refused.stderr).toMatch(/Token request to .*\/oauth\/token was refused \(HTTP 401\) in the basic style/);
    running.child.kill('SIGTERM');
    await running.done;
    // Each trigger's sample carries its own dateCreated: three customers events, no order (its token was refused).
    expect(inboxOnDisk(inbox).map((record) => record.kind)).toEqual(['customers', 'customers', 'customers']);
    const down = await runCli(['webhook', 'trigger', 'orders', '--url', running.url, '--client-id', clientId], {
      configDir: config,
      env: secretEnv,
    });
    expect(down.code).toBe(69);
    expect(down.stderr).toMatch(/Token request to .* failed: .*ECONNREFUSED/);
  });
});
