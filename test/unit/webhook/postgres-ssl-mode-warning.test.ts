/**
 * A store URL with `sslmode=require` or `sslmode=verify-ca`: pg reads both as verify-full and said so in a process
 * warning on every start ("SECURITY WARNING: … use 'uselibpqcompat=true&sslmode=require'"), whose advice would turn the
 * certificate check off (a user test). b2bctl hands pg the URL spelled as pg reads it: the same check, no warning.
 * In a file of its own: pg warns once a process, and vitest runs each file in a fresh one.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pgConnectionOf, storeReachOf } from '../../../src/webhook/store/postgres-tls.js';
import { storeUrlParts } from '../../../src/webhook/store/postgres-url.js';

const { default: ConnectionParameters } = {
  default: createRequire(import.meta.url)('pg/lib/connection-parameters.js'),
} as { default: new (config: Record<string, unknown>) => { ssl: unknown } };

afterEach(() => vi.restoreAllMocks());

describe('sslmode=require and sslmode=verify-ca in a store URL', () => {
  it.each(['require', 'verify-ca'])('sslmode=%s: TLS with the certificate checked, and no warning from pg', (mode) => {
    const warnings = vi.spyOn(process, 'emitWarning');
    const url = `postgres://erp@db.example.com/inbox?sslmode=${mode}&application_name=b2bctl`;
    storeUrlParts(url, '--store');
    const reach = storeReachOf(url, '--store', { environment: {}, allowPlain: false });
    for (const connection of [pgConnectionOf(url, reach), pgConnectionOf(url, undefined)]) {
      const { ssl } = new ConnectionParameters(connection);
      expect(ssl).toBeTruthy();
      expect((ssl as { rejectUnauthorized?: boolean }).rejectUnauthorized).not.toBe(false);
    }
    expect(warnings).not.toHaveBeenCalled();
  });

  it('beside uselibpqcompat the URL is handed over as written (and refused past this machine, as before)', () => {
    const url = 'postgres://erp@db.example.com/inbox?sslmode=require&uselibpqcompat=true';
    expect(pgConnectionOf(url, undefined)).toEqual({ connectionString: url });
  });
});
