/**
 * `doctor` on an order listing whose first order's update stamp is in a form b2bctl does not read (a user test), or empty
 * on an order never updated since created (a user test): it says what the field holds, and names no setting that cannot
 * help; an empty stamp beside a creation instant is what orders poll reads as of that instant.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** doctor's finding about the order listing, with the listing answering `orders`. */
async function listingFinding(orders: unknown[]) {
  platform.routes['GET /v1/orders'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(orders));
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(['doctor', '-o', 'json'], { configDir: freshConfigDir(), env });
  const findings = JSON.parse(result.stdout) as { check: string; result: string; detail: string; setting?: string }[];
  return findings.find((finding) => finding.check.startsWith('GET /v1/orders?limit=1'));
}

describe('doctor: the update stamp of the first listed order', () => {
  it('quotes a stamp in a form b2bctl does not read, and names no setting', async () => {
    const finding = await listingFinding([{ id: 7, status: 'NEW', lastUpdated: '30/11/2026 14:22:18' }]);
    expect(finding).toMatchObject({
      result: 'warn',
      detail: expect.stringContaining(
        `its first order's "lastUpdated" holds "30/11/2026 14:22:18", which is no instant b2bctl reads (ISO-8601, or epoch seconds or milliseconds): orders poll would emit no order stamped so, and no setting reads it`,
      ),
    });
    expect(finding?.setting).toBeUndefined();
  });

  it('an empty stamp beside a creation instant is read as of that instant', async () => {
    const finding = await listingFinding([
      {
        id: 7,
        status: 'NEW',
        lastUpdated: null,
        dateCreated: '2026-11-30T10:00:00Z',
        partnerDocument: '11444777000161',
      },
    ]);
    expect(finding?.detail).toContain(
      'update instant in "dateCreated" (its "lastUpdated" is unset: never updated since created)',
    );
    expect(finding?.result).toBe('ok');
  });
});
