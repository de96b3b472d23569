import { describe, expect, it } from 'vitest';
import type { Session } from '../../../src/config/session.js';
import { ExitCode, UsageError } from '../../../src/errors.js';
import { PlatformClient } from '../../../src/platform/client.js';
import type { HttpClient } from '../../../src/platform/http-client.js';
import type { TokenSource } from '../../../src/platform/token-source.js';

/** A client whose routes come from these settings; routing sends nothing, so no HTTP or token is needed. */
function clientWith(settings: Record<string, string>): PlatformClient {
  const session = { value: (key: string) => settings[key] } as unknown as Session;
  return new PlatformClient({} as HttpClient, session, {} as TokenSource);
}

describe('PlatformClient.route', () => {
  it('fills and escapes the parameters of a route setting', () => {
    const client = clientWith({ 'paths.customer': '/v1/customer/:document' });
    expect(client.route('paths.customer', { document: '12.345/6' })).toBe('/v1/customer/12.345%2F6');
  });

  it('an empty route setting is a usage error (exit 2) naming the setting, not an internal error', () => {
    const client = clientWith({ 'paths.customer': '' });
    expect(() => client.route('paths.customer', { document: '1' })).toThrow(
      new UsageError("The paths.customer setting is empty: set it to the route's path."),
    );
    expect(() => client.route('paths.customer')).toThrow(expect.objectContaining({ exitCode: ExitCode.usage }));
  });

  it('a setting naming a parameter the route does not fill is a usage error naming both', () => {
    const client = clientWith({ 'paths.customer': '/v1/customer/:doc' });
    expect(() => client.route('paths.customer', { document: '1' })).toThrow(
      new UsageError(
        'The paths.customer setting (/v1/customer/:doc) names :doc, which this route does not fill (it fills :document); correct the setting.',
      ),
    );
  });
});
