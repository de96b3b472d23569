/**
 * `--cursor` lets one store feed two importers (a `--status CANCELED` feed beside the main one), but the lock was the
 * profile's: whenever the two cron lines met, the second exited 75 and lost its run (a user test). The lock protects the
 * cursor, so it is now the cursor's: runs of two cursors overlap, two runs of one cursor (however it is spelled)
 * still never do.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** Listings answer no order; the first one asked from before `heldBefore` waits until the test answers it. */
function listingHolding(heldBefore: number): Promise<() => void> {
  return new Promise((held) => {
    let holding = true;
    platform.routes['GET /v1/orders'] = (request, _body, response) => {
      const from = new URL(request.url ?? '', 'http://localhost').searchParams.get('updatedFrom') ?? '';
      const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      if (holding && Date.parse(from) < heldBefore) {
        holding = false;
        held(answer);
      } else answer();
    };
  });
}

describe('orders poll: the lock is the cursor file', () => {
  it('a second feed on a cursor of its own runs while the first polls; one on the same cursor exits 75', async () => {
    const configDir = freshConfigDir();
    const work = freshWorkDir();
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const held = listingHolding(Date.now() - 2 * 86_400_000);
    const main = runCommandLine(
      ['orders', 'poll', '--cursor', join(work, 'main.json'), '--since', '30d', '-o', 'ndjson'],
      { configDir, env },
    );
    const answerMain = await Promise.race([
      held,
      main.then((result) => {
        throw new Error(`the main poll ended before its listing, exit ${result.code}: ${result.stderr}`);
      }),
    ]);

    const canceled = await runCommandLine(
      ['orders', 'poll', '--cursor', join(work, 'canceled.json'), '--since', '1h', '--status', 'CANCELED'],
      { configDir, env },
    );
    expect([canceled.code, canceled.stderr]).toEqual([0, expect.not.stringContaining('Another')]);

    // The main cursor again, spelled from its folder: the same file, the same lock.
    const again = await runCommandLine(['orders', 'poll', '--cursor', 'main.json', '--since', '1h'], {
      configDir,
      env,
      cwd: work,
    });
    expect(again.code).toBe(75);
    expect(again.stderr).toMatch(
      new RegExp(
        `Another "b2bctl orders poll \\(profile default, cursor \\S*main\\.json\\)" is running \\(PID ${process.pid}`,
      ),
    );

    answerMain();
    expect((await main).code).toBe(0);
    const listings = platform.received.filter((request) => request === 'GET /v1/orders');
    expect(listings.length).toBeGreaterThanOrEqual(2);
  });

  it("the profile's own cursor keeps the profile's lock, also named with --cursor", async () => {
    const configDir = freshConfigDir();
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const held = listingHolding(Date.now() - 2 * 86_400_000);
    const first = runCommandLine(['orders', 'poll', '--since', '30d', '-o', 'ndjson'], { configDir, env });
    const answer = await Promise.race([
      held,
      first.then((result) => {
        throw new Error(`the first poll ended before its listing, exit ${result.code}: ${result.stderr}`);
      }),
    ]);
    const named = join(configDir, 'cursors', 'default.orders-poll.json');
    const second = await runCommandLine(['orders', 'poll', '--cursor', named, '--since', '1h'], { configDir, env });
    expect(second.code).toBe(75);
    expect(second.stderr).toContain('Another "b2bctl orders poll (profile default)" is running');
    answer();
    expect((await first).code).toBe(0);
  });
});
