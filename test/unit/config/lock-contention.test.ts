/**
 * Two cron runs (or two receivers on one inbox) that find the same stale lock at the same moment: exactly one takes
 * it over. Two real processes contend, 200 rounds, each on a fresh stale lock; a holder keeps its lock until it exits,
 * so two `held` answers in one round are two holders at once. And config.json's write lock, the same design, under
 * processes that each save their own profile's token while another is stopped in the middle of its write.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
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

/** The support script `name` bundled into one file a plain `node` runs. */
function bundled(name: string): string {
  const script = join(folder, name.replace(/\.ts$/, '.mjs'));
  buildSync({
    entryPoints: [join(__dirname, '../../support', name)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'error',
  });
  return script;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('two processes taking over one stale lock at once', () => {
  it(`leave exactly one holder in each of ${rounds} rounds`, { timeout: 600_000 }, async () => {
    const script = bundled('lock-contender.ts');
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

/** Each profile's token as config.json holds it now. */
function savedTokens(configFolder: string): Record<string, string | undefined> {
  const { profiles } = JSON.parse(readFileSync(join(configFolder, 'config.json'), 'utf8')) as {
    profiles: Record<string, { token?: string }>;
  };
  return Object.fromEntries(Object.entries(profiles).map(([name, profile]) => [name, profile.token]));
}

describe('processes saving their own profile in config.json at once', () => {
  const writers = 4;
  const renewals = 25;

  it(
    'lose no write, also while one writer is stopped inside its write for longer than a lock used to be trusted',
    { timeout: 120_000 },
    async () => {
      const script = bundled('config-writer.ts');
      const configFolder = join(folder, 'config');
      const lockFile = join(configFolder, 'config.json.lock');
      const goFile = join(folder, 'go');
      const stopped = startContender(script);
      const others = Array.from({ length: writers }, () => startContender(script));
      const renew = (lockWaitMs: number) => {
        const start = Date.now() + 30;
        others.forEach((writer, index) =>
          writer.child.stdin.write(`renew ${configFolder} p${index} ${renewals} ${start} ${lockWaitMs}\n`),
        );
      };
      try {
        stopped.child.stdin.write(`hold ${configFolder} slow slow-token ${goFile}\n`);
        await answered(stopped, 1);
        expect(stopped.answers[0]).toBe('holding slow');
        // Stopped (SIGSTOP, a closed laptop lid, a loaded cron host) in the middle of its write, long enough for a lock
        // judged by its age to count as a killed writer's: its file 60 s old, no real wait.
        stopped.child.kill('SIGSTOP');
        const past = new Date(Date.now() - 60_000);
        utimesSync(lockFile, past, past);
        renew(200);
        await Promise.all(others.map((writer) => answered(writer, 1)));
        stopped.child.kill('SIGCONT');
        writeFileSync(goFile, '');
        await answered(stopped, 2);
        expect(stopped.answers[1]).toBe('held slow');

        // No writer that said it saved lost its save to the stopped one's write (which read the file before theirs).
        const saved = savedTokens(configFolder);
        const lost = others.flatMap((writer, index) =>
          writer.answers[0]?.startsWith('renewed') && saved[`p${index}`] !== `p${index}-token-${renewals}`
            ? [`p${index}`]
            : [],
        );
        expect(lost).toEqual([]);
        // The stopped writer still ran: no other took its lock over, each said so (naming the lock) and saved nothing.
        expect(others.map((writer) => writer.answers[0])).toEqual(
          others.map((_, index) => expect.stringMatching(new RegExp(`^refused p${index} 75 .*config\\.json\\.lock`))),
        );
        expect(savedTokens(configFolder)).toEqual({ slow: 'slow-token' });

        // Then all of them at once with nothing in the way: every last renewal is in the file, the stopped writer's too.
        renew(10_000);
        await Promise.all(others.map((writer) => answered(writer, 2)));
        expect(others.map((writer) => writer.answers[1])).toEqual(
          others.map((_, index) => `renewed p${index} ${renewals}`),
        );
        expect(savedTokens(configFolder)).toEqual({
          slow: 'slow-token',
          ...Object.fromEntries(others.map((_, index) => [`p${index}`, `p${index}-token-${renewals}`])),
        });
      } finally {
        for (const contender of [stopped, ...others]) contender.child.kill('SIGKILL');
      }
    },
  );
});
