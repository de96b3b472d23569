/**
 * Two cron runs (or two receivers on one inbox) that find the same stale lock at the same moment: exactly one takes
 * it over. Two real processes contend, 200 rounds, each on a fresh stale lock; a holder keeps its lock until it exits,
 * so two `held` answers in one round are two holders at once.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../support/temporary.js';

const folder = temporaryFolder('b2bctl-lock-contention-');

const rounds = 200;

/** A contender process and its answers, one line per lock it was told to take. */
interface Contender {
  child: ChildProcessWithoutNullStreams;
  lines: Interface;
  answers: string[];
  waiting?: () => void;
}

function startContender(script: string): Contender {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const contender: Contender = { child, lines: createInterface({ input: child.stdout }), answers: [] };
  contender.lines.on('line', (line) => {
    contender.answers.push(line);
    contender.waiting?.();
  });
  return contender;
}

/** Waits until the contender has answered `count` lines in all. */
async function answered(contender: Contender, count: number): Promise<void> {
  while (contender.answers.length < count) {
    await new Promise<void>((resolve, reject) => {
      const exited = () => reject(new Error(`contender exited: ${contender.answers.join('\n')}`));
      // One listener per wait, taken off when the line comes: a long contention waits many times.
      contender.waiting = () => {
        contender.child.off('exit', exited);
        resolve();
      };
      contender.child.once('exit', exited);
    });
  }
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('two processes taking over one stale lock at once', () => {
  it(`leave exactly one holder in each of ${rounds} rounds`, { timeout: 600_000 }, async () => {
    const script = join(folder, 'lock-contender.mjs');
    buildSync({
      entryPoints: [join(__dirname, '../../support/lock-contender.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'error',
    });
    const contenders = [startContender(script), startContender(script)];
    const pid = await deadPid();
    const holdersPerRound: number[] = [];
    try {
      for (let round = 1; round <= rounds; round++) {
        const path = join(folder, `round-${round}`, 'stock-push.lock');
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, JSON.stringify({ pid, command: 'stock push', startedAt: '2026-11-21T02:00:00.000Z' }));
        // A start a little ahead, so both have read the line before it: their takeovers then overlap.
        const start = Date.now() + 30;
        for (const contender of contenders) contender.child.stdin.write(`${path} ${start}\n`);
        await Promise.all(contenders.map((contender) => answered(contender, round)));
        const answers = contenders.map((contender) => contender.answers[round - 1] ?? '');
        expect(answers.every((answer) => answer === `held ${path}` || answer === `refused ${path} 75`)).toBe(true);
        holdersPerRound.push(answers.filter((answer) => answer.startsWith('held')).length);
      }
    } finally {
      for (const contender of contenders) contender.child.kill();
    }
    expect(holdersPerRound.filter((holders) => holders !== 1)).toEqual([]);
  });
});
