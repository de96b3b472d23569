/**
 * `--since` and `--until` as an operator in São Paulo types them: a date alone is the machine's local midnight, as a
 * date-time without a zone is its local time (git and journalctl read them so). JavaScript reads a date alone as
 * UTC, and `webhook inbox --until 2026-11-24` there left out the evening of the 23rd. Only a process shows it: the
 * time zone is the process's own (TZ).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent } from '../../../src/webhook/store/types.js';
import { freshConfigDir, runCli } from '../../support/cli.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const event = (id: number, receivedAt: string): NewEvent => ({
  receivedAt: Date.parse(receivedAt),
  kind: 'customers',
  deliveryId: `delivery-${id}`,
  key: `customers:${id}`,
  flags: [],
  clientAddress: '203.0.113.7',
  raw: JSON.stringify({ id }),
});

describe('webhook inbox --since and --until on a machine in São Paulo (UTC-3)', () => {
  it('a date alone is local midnight, as a date-time without a zone is local time', async () => {
    const inbox = temporaryFolder();
    const store = await SqliteStore.open(inbox);
    // 22:00 of the 22nd, 22:00 of the 23rd and 01:00 of the 24th in São Paulo.
    for (const stored of [
      event(1, '2026-11-23T01:00:00.000Z'),
      event(2, '2026-11-24T01:00:00.000Z'),
      event(3, '2026-11-24T04:00:00.000Z'),
    ])
      await store.append(stored);
    await store.close();
    const listed = async (...range: string[]) => {
      const result = await runCli(['webhook', 'inbox', '--inbox', inbox, ...range, '-o', 'ndjson'], {
        configDir: freshConfigDir(),
        env: { TZ: 'America/Sao_Paulo' },
      });
      expect(result.code).toBe(0);
      return result.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { deliveryId: string }).deliveryId);
    };
    const the23rd = ['delivery-2'];
    expect(await listed('--since', '2026-11-23', '--until', '2026-11-24')).toEqual(the23rd);
    expect(await listed('--since', '2026-11-23T00:00', '--until', '2026-11-24T00:00:00')).toEqual(the23rd);
    expect(await listed('--since', '2026-11-23T03:00:00Z', '--until', '2026-11-24T00:00-03:00')).toEqual(the23rd);
  });
});
