import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/webhook/store/group-commit.js';

/** A commit that records its batches and can be held open until `release()`. */
function recordingCommit() {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  let open = 0;
  let overlapped = false;
  let holding = false;
  const commit = async (items: number[]) => {
    batches.push(items);
    open++;
    if (open > 1) overlapped = true;
    if (holding) await new Promise<void>((resolve) => releases.push(resolve));
    open--;
    return items.map((item) => item * 10);
  };
  return {
    commit,
    batches,
    hold: () => (holding = true),
    /** Lets the held commits return; later ones are held too until `releaseAll()`. */
    release: () => {
      for (const release of releases.splice(0)) release();
    },
    releaseAll: () => {
      holding = false;
      for (const release of releases.splice(0)) release();
    },
    overlapped: () => overlapped,
    open: () => open,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('commits the submissions of one turn of the event loop as one batch, each answered with its own result', async () => {
    const recorder = recordingCommit();
    const group = new GroupCommit(recorder.commit);
    const results = await Promise.all([group.submit(1), group.submit(2), group.submit(3)]);
    expect(results).toEqual([10, 20, 30]);
    expect(recorder.batches).toEqual([[1, 2, 3]]);
  });

  it('gathers what arrives during a commit into the next batch, never two commits at once', async () => {
    const recorder = recordingCommit();
    const group = new GroupCommit(recorder.commit);
    recorder.hold();
    const first = group.submit(1);
    await turn();
    await turn();
    expect(recorder.batches).toEqual([[1]]);
    const later = [group.submit(2), group.submit(3)];
    await turn();
    await turn();
    expect(recorder.batches).toEqual([[1]]);
    recorder.release();
    await first;
    await turn();
    recorder.releaseAll();
    expect(await Promise.all(later)).toEqual([20, 30]);
    expect(recorder.batches).toEqual([[1], [2, 3]]);
    expect(recorder.overlapped()).toBe(false);
  });

  it('commits one item at a time when asked to', async () => {
    const recorder = recordingCommit();
    const group = new GroupCommit(recorder.commit, true);
    expect(await Promise.all([group.submit(1), group.submit(2), group.submit(3)])).toEqual([10, 20, 30]);
    expect(recorder.batches).toEqual([[1], [2], [3]]);
  });

  it('rejects every submission of a failed batch, and commits the next one', async () => {
    let fail = true;
    const group = new GroupCommit(async (items: number[]) => {
      if (fail) {
        fail = false;
        throw new Error('database or disk is full');
      }
      return items;
    });
    const failed = [group.submit(1), group.submit(2)].map((submitted) =>
      submitted.then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(failed)).toEqual(['database or disk is full', 'database or disk is full']);
    expect(await group.submit(3)).toBe(3);
  });

  it('commits a submission made just as the last batch was answered (in its answer callback)', async () => {
    const recorder = recordingCommit();
    const group = new GroupCommit(recorder.commit);
    const second = group.submit(1).then(() => group.submit(2));
    const stuck = (async () => {
      for (let turns = 0; turns < 50; turns++) await turn();
      return 'never committed';
    })();
    expect(await Promise.race([second, stuck])).toBe(20);
    expect(recorder.batches).toEqual([[1], [2]]);
  });

  it('settled() waits for every submission, including one that started a drain of its own', async () => {
    const recorder = recordingCommit();
    const group = new GroupCommit(recorder.commit);
    recorder.hold();
    let answered = 0;
    void group.submit(1).then(() => {
      answered++;
      void group.submit(2).then(() => answered++);
    });
    let settled = false;
    const waiting = group.settled().then(() => (settled = true));
    await turn();
    await turn();
    expect(settled).toBe(false);
    recorder.release();
    // The second submission's commit is held too: settled() must still wait for it.
    for (let turns = 0; turns < 50 && recorder.batches.length < 2; turns++) await turn();
    expect(recorder.batches).toEqual([[1], [2]]);
    await turn();
    expect({ settled, answered }).toEqual({ settled: false, answered: 1 });
    recorder.releaseAll();
    await waiting;
    expect({ settled, answered }).toEqual({ settled: true, answered: 2 });
  });
});
