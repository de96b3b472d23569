/** The sandbox's controls that `b2bctl api` tests use: planned faults mid-listing, listing sizes, a broken offset. */
import type { RunningSandbox } from '../../src/sandbox/server.js';

async function control(sandbox: RunningSandbox, method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
}

/** The `onRequest`-th request to `route` from now answers 429, 503, or finds every token revoked (a 401). */
export function scheduleFault(
  sandbox: RunningSandbox,
  route: string,
  onRequest: number,
  answer: 429 | 502 | 503 | 'revoke-tokens',
): Promise<void> {
  return control(sandbox, 'POST', '/_sandbox/faults/scheduled', { route, onRequest, answer });
}

/** Appends `count` items to a named listing (`branch` for branchContracts). */
export function generateListing(sandbox: RunningSandbox, name: string, count: number, branch?: string): Promise<void> {
  return control(sandbox, 'POST', `/_sandbox/listings/${name}/generate`, { count, branch });
}

export function clearListing(sandbox: RunningSandbox, name: string): Promise<void> {
  return control(sandbox, 'DELETE', `/_sandbox/listings/${name}`);
}

/** A broken platform that answers the first page whatever the offset. */
export function ignoreOffset(sandbox: RunningSandbox, ignore: boolean): Promise<void> {
  return control(sandbox, 'PUT', '/_sandbox/listings/settings', { ignoreOffset: ignore });
}

/** The ids of NDJSON lines, as text (the legacy dialect sends ids as text). */
export function idsOfLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => String((JSON.parse(line) as { id: unknown }).id));
}
