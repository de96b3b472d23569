/**
 * One export pushed to two stores (profiles s1 and s2 of one config folder): `--keep-reports 1` of store 1's run
 * removed the report and run record of store 2's run of the same file, while that run was still sending and after it
 * was interrupted, so the resume command store 2's run printed failed (exit 66) and its unsent items were stranded
 * (a user test). Now a run prunes only the runs of its own command, profile and store, never one still sending, and keeps
 * one whose resume is still to be run until as many newer runs of its owner have finished.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';

const platform = useScriptedPlatform();

const tokens = { s1: 'store-one-token-0123456789', s2: 'store-two-token-0123456789' } as const;
type Store = keyof typeof tokens;

/** The SKUs each store was sent, in order; a store's batch may be held until the test lets it be answered. */
interface Stores {
  sent: Record<Store, string[]>;
  /** Holds the next batch of `store`: resolves once it arrived, with the function that answers it. */
  holdNext(store: Store): Promise<() => void>;
}

function scriptStores(): Stores {
  const sent: Record<Store, string[]> = { s1: [], s2: [] };
  const held: Partial<Record<Store, (answer: () => void) => void>> = {};
  platform.routes['PUT /v1/stock/batch'] = (request, body, response) => {
    const store: Store = request.headers.authorization === `Bearer ${tokens.s1}` ? 's1' : 's2';
    const skus = (JSON.parse(body) as { items: { sku: string }[] }).items.map((item) => item.sku);
    const answer = () => {
      sent[store].push(...skus);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    const hold = held[store];
    delete held[store];
    if (hold) hold(answer);
    else answer();
  };
  return {
    sent,
    holdNext: (store) => new Promise((resolve) => (held[store] = resolve)),
  };
}

/** A config folder with the profiles s1 and s2, each with its own store's token, on the scripted platform. */
async function twoStores(): Promise<string> {
  const configDir = freshConfigDir();
  for (const store of ['s1', 's2'] as const) {
    const login = await runCommandLine(
      ['login', '--profile', store, '--base-url', platform.url, '--token-stdin', '--no-verify'],
      { configDir, stdin: `${tokens[store]}\n` },
    );
    expect(login.code).toBe(0);
  }
  return configDir;
}

/** The export both stores are sent: four items, two per request. */
function oneExport(): { folder: string; input: string } {
  const folder = freshWorkDir();
  const input = join(folder, 'estoque.csv');
  writeFileSync(input, 'sku,quantity\nA1,1\nB2,2\nC3,3\nD4,4\n');
  return { folder, input };
}

function push(
  input: string,
  configDir: string,
  store: Store,
  flags: string[] = [],
  started?: (t: TestContext) => void,
) {
  const args = ['stock', 'push', input, '--profile', store, '--route', 'batch', '--batch-size', '2'];
  return runCommandLine([...args, '--concurrency', '1', ...flags], { configDir, started });
}

/** The held batch's answer, or the run's output if it ended before sending one. */
async function heldOrEnded(
  batch: Promise<() => void>,
  running: Promise<{ code: number | null; stderr: string }>,
): Promise<() => void> {
  const ended = running.then((result) => {
    throw new Error(`the run ended before its first batch, exit ${result.code}: ${result.stderr}`);
  });
  return Promise.race([batch, ended]);
}

/** The report a run printed, `stock push: report: PATH`. */
function reportOf(stderr: string): string {
  return /^stock push: report: (.+)$/m.exec(stderr)?.[1] ?? '';
}

/** The run's printed resume command, without `B2BCTL_CONFIG_DIR=… b2bctl`, as argv. */
function resumeArgs(stderr: string): string[] {
  const command = /Resume with: .*?b2bctl (stock push .*)$/m.exec(stderr)?.[1] ?? '';
  return command.split(' ').map((word) => word.replace(/^'(.*)'$/, '$1'));
}

describe('--keep-reports with two stores pushing one export', () => {
  it("leaves the other store's run that is still sending, whose resume then sends exactly the rest", async () => {
    const stores = scriptStores();
    const configDir = await twoStores();
    const { folder, input } = oneExport();
    let store2: TestContext | undefined;
    const firstBatchOfStore2 = stores.holdNext('s2');
    const running = push(input, configDir, 's2', [], (test) => (store2 = test));
    const answerStore2 = await heldOrEnded(firstBatchOfStore2, running);

    const store1 = await push(input, configDir, 's1', ['--keep-reports', '1']);
    expect(store1.code).toBe(0);
    expect(store1.stderr).not.toContain('removed');
    expect(stores.sent.s1).toEqual(['A1', 'B2', 'C3', 'D4']);

    store2?.interrupt();
    answerStore2();
    const interrupted = await running;
    expect(interrupted.code).toBe(75);
    const report = reportOf(interrupted.stderr);
    expect(existsSync(report)).toBe(true);
    expect(existsSync(report.replace(/\.csv$/, '.meta.json'))).toBe(true);
    expect(readReport(report).map((row) => `${row.key} ${row.outcome}`)).toEqual(['A1 accepted', 'B2 accepted']);

    const resumed = await runCommandLine(resumeArgs(interrupted.stderr), { configDir, cwd: folder });
    expect([resumed.code, resumed.stderr]).toEqual([0, expect.stringContaining('(2 already done by the resumed run)')]);
    expect(stores.sent.s2).toEqual(['A1', 'B2', 'C3', 'D4']);
  });

  it("keeps the other store's interrupted run, and its own until a newer run of its store finished", async () => {
    const stores = scriptStores();
    const configDir = await twoStores();
    const { folder, input } = oneExport();
    let store2: TestContext | undefined;
    const firstBatch = stores.holdNext('s2');
    const running = push(input, configDir, 's2', [], (test) => (store2 = test));
    const answer = await heldOrEnded(firstBatch, running);
    store2?.interrupt();
    answer();
    const interrupted = await running;
    expect(interrupted.code).toBe(75);
    const pending = reportOf(interrupted.stderr);

    // Store 1's nights, each keeping one: store 2's pending resume is not theirs to remove.
    for (const night of [1, 2]) {
      const store1 = await push(input, configDir, 's1', ['--keep-reports', '1', '--quiet']);
      expect([night, store1.code]).toEqual([night, 0]);
    }
    expect(existsSync(pending)).toBe(true);
    const reports = () => readdirSync(folder).filter((name) => name.endsWith('.csv') && name !== 'estoque.csv');
    expect(reports()).toHaveLength(2);

    // Store 2's next night finishes: it sent the whole export again, so the pending resume is one run too many.
    const store2Night = await push(input, configDir, 's2', ['--keep-reports', '1']);
    expect(store2Night.code).toBe(0);
    expect(store2Night.stderr).toContain('stock push: removed 2 files of older runs (--keep-reports 1)');
    expect(existsSync(pending)).toBe(false);
    expect(existsSync(pending.replace(/\.csv$/, '.meta.json'))).toBe(false);
    expect(reports().toSorted()).toEqual([expect.any(String), expect.any(String)]);
    expect(stores.sent.s2).toEqual(['A1', 'B2', 'A1', 'B2', 'C3', 'D4']);
  });

  it('an interrupted run of its own store is kept by a run that does not finish either', async () => {
    const stores = scriptStores();
    const configDir = await twoStores();
    const { input } = oneExport();
    const interruptedRun = async () => {
      let test: TestContext | undefined;
      const batch = stores.holdNext('s1');
      const running = push(input, configDir, 's1', ['--keep-reports', '1'], (t) => (test = t));
      const answer = await heldOrEnded(batch, running);
      test?.interrupt();
      answer();
      return running;
    };
    const first = await interruptedRun();
    const second = await interruptedRun();
    expect([first.code, second.code]).toEqual([75, 75]);
    expect(existsSync(reportOf(first.stderr))).toBe(true);
    expect(second.stderr).not.toContain('removed');
  });
});
