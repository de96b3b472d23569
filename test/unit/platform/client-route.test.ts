import { describe, expect, it } from 'vitest';
import type { ProfileStore } from '../../../src/config/profile-store.js';
import { Session } from '../../../src/config/session.js';
import { ExitCode, UsageError } from '../../../src/base/errors.js';
import { PlatformClient } from '../../../src/platform/client.js';
import type { HttpClient } from '../../../src/platform/http-client.js';
import type { TokenSource } from '../../../src/platform/token-source.js';

/** A client whose routes come from this profile; routing sends nothing, so no HTTP or token is needed. */
function clientWith(profile: Record<string, string>): PlatformClient {
  const session = new Session({ store: {} as ProfileStore, profileName: 'prod', profile, flags: {}, env: {} });
  return new PlatformClient({} as HttpClient, session, {} as TokenSource);
}

describe('PlatformClient.route', () => {
  it('fills and escapes the parameters of a route setting', () => {
    const client = clientWith({ 'paths.customerAddresses': '/v1/customer/:document' });
    expect(client.route('paths.customerAddresses', { document: '12.345/6' })).toBe('/v1/customer/12.345%2F6');
  });

  it('an empty route setting falls back to the route of the settings table', () => {
    const client = clientWith({ 'paths.customerAddresses': '' });
    expect(client.route('paths.customerAddresses', { document: '1' })).toBe('/v1/customer/addresses/1');
  });

  it('a route in the profile that is not a path is a usage error naming key, value and profile', () => {
    const client = clientWith({ 'paths.customerAddresses': 'v1/addresses' });
    expect(() => client.route('paths.customerAddresses', { document: '1' })).toThrow(
      new UsageError(
        'Setting "paths.customerAddresses" must start with /, not "v1/addresses" (from profile "prod"; change it with b2bctl config set paths.customerAddresses VALUE --profile prod).',
      ),
    );
    expect(() => client.route('paths.customerAddresses')).toThrow(
      expect.objectContaining({ exitCode: ExitCode.usage }),
    );
  });

  it('a setting naming a parameter the route does not fill is a usage error naming both', () => {
    const client = clientWith({ 'paths.customerAddresses': '/v1/customer/:doc' });
    expect(() => client.route('paths.customerAddresses', { document: '1' })).toThrow(
      new UsageError(
        'The paths.customerAddresses setting (/v1/customer/:doc) names :doc, which this route does not fill (it fills :document); correct the setting.',
      ),
    );
  });

  it('an empty value is refused as a path segment: it would ask the collection (GET /v1/orders/ is the listing)', () => {
    const client = clientWith({});
    expect(() => client.route('paths.order', { id: '' })).toThrow(
      new UsageError(
        "An empty value cannot fill :id of the paths.order setting: the request would go to the route's collection instead.",
      ),
    );
  });
});
