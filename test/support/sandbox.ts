/**
 * The sandbox in process over real HTTP on an ephemeral port, for in-process command tests and end-to-end
 * tests alike, with the control routes tests read (`/_sandbox/...`).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { run as login } from '../../src/commands/auth/login.js';
import type { SalesRep } from '../../src/domain/sales-rep.js';
import { SandboxClock } from '../../src/sandbox/clock.js';
import { sandboxDefaults, type SandboxOptions } from '../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { loadSalesReps } from '../../src/sandbox/sellers-seed.js';
import { FakeClock } from './fake-clock.js';
import { removeTemporaryFolders } from './temporary.js';
import { testContext, type TestContext, type TestContextOptions } from './test-context.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const seedDirectory = join(repoRoot, 'samples');

export const sandboxUser = sandboxDefaults.username;
export const sandboxPassword = sandboxDefaults.password;

/**
 * The keys of a sales rep in the listing's answer, in the platform document's order: stated here, apart from the
 * table of src/domain/sales-rep.ts that the CLI and the sandbox both read, so that a change of that table shows.
 */
export const salesRepKeys: readonly string[] = (
  'id username document restrictedCustomers enabledFreight enabledInsertFreight enabledCustomerRegistration ' +
  'enableDiscountItemValue enableAddItemValue enableDiscountBranch enableDiscountFranchise enableDiscountSeller ' +
  'enableCoupon enableChatSupport enableRestrictedCustomers enableRestrictedGroupsAttendant attendantCode ' +
  'allowedSellersId profile createdAt updatedAt'
).split(' ');

/** The 64 sales reps exactly as the sandbox serves them, in seed order (its own normalisation). */
export const seedReps: readonly SalesRep[] = loadSalesReps(seedDirectory);

/**
 * A sandbox on 127.0.0.1 with an ephemeral port, seeded from samples/; faults off unless asked. With `clock`,
 * the platform's time is that clock's, so a fake clock moves both sides of a test together.
 */
export function startTestSandbox(
  overrides: Partial<SandboxOptions> = {},
  clock?: { now(): number },
): Promise<RunningSandbox> {
  return startSandbox(
    { ...sandboxDefaults, host: '127.0.0.1', port: 0, seedDirectory, ...overrides },
    clock ? new SandboxClock(() => clock.now()) : undefined,
  );
}

/** A sandbox and the fake clock it shares with the test contexts made from it. */
export interface SandboxFixture {
  sandbox: RunningSandbox;
  clock: FakeClock;
  /** A test context on the shared clock (a fresh config folder unless one is given). */
  context(options?: TestContextOptions): TestContext;
  /**
   * A test context whose config folder holds a login (b2bctl login, run in process) to the sandbox, or to the
   * base URL of `options.globals.baseUrl` (a proxy in front of it); the sandbox's request counts start at zero.
   */
  loggedInContext(options?: TestContextOptions): Promise<TestContext>;
}

/** Starts a sandbox on a fake clock; close it with `fixture.sandbox.close()`. */
export async function startSandboxFixture(overrides: Partial<SandboxOptions> = {}): Promise<SandboxFixture> {
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0, 0));
  const sandbox = await startTestSandbox(overrides, clock);
  const context = (options: TestContextOptions = {}) => testContext({ clock, ...options });
  return {
    sandbox,
    clock,
    context,
    async loggedInContext(options = {}) {
      const configDir = await logInProcess(sandbox, {
        configDir: options.configDir,
        baseUrl: options.globals?.baseUrl,
        clock,
      });
      return context({ ...options, configDir });
    },
  };
}

/**
 * Runs b2bctl login in process against the sandbox (or `baseUrl`, a proxy in front of it) into `configDir` (a
 * fresh one when absent), then zeroes the sandbox's request counts: a test counts its command's requests only.
 */
export async function logInProcess(
  sandbox: RunningSandbox,
  options: { configDir?: string; baseUrl?: string; clock?: TestContextOptions['clock'] } = {},
): Promise<string> {
  const loggingIn = testContext({
    configDir: options.configDir,
    clock: options.clock,
    env: { B2BCTL_PASSWORD: sandboxPassword },
    globals: { baseUrl: options.baseUrl ?? sandbox.url },
  });
  const code = await loggingIn.run(login, { username: sandboxUser, passwordStdin: false, tokenStdin: false });
  if (code !== 0) throw new Error(`login failed with exit ${code}: ${loggingIn.stderr()}`);
  await resetCounts(sandbox);
  return loggingIn.configDir;
}

/**
 * A fresh sandbox for each test of the file, closed after it (with the temporary folders), so no test sees
 * another's customers, stock or request counts. Call the returned function inside a test.
 */
export function useSandbox(overrides: Partial<SandboxOptions> = {}): () => SandboxFixture {
  let fixture: SandboxFixture | undefined;
  beforeEach(async () => {
    fixture = await startSandboxFixture(overrides);
  });
  afterEach(async () => {
    await fixture?.sandbox.close();
    fixture = undefined;
    removeTemporaryFolders();
  });
  return () => {
    if (!fixture) throw new Error('useSandbox(): the sandbox exists only inside a test');
    return fixture;
  };
}

/**
 * One sandbox for the test file, handed to `started` before the first test; closed after the file, with its
 * temporary folders.
 */
export function useFileSandbox(started: (sandbox: RunningSandbox) => void): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    started(sandbox);
  });
  afterAll(async () => {
    if (sandbox) await stopTestSandbox(sandbox);
  });
}

/**
 * One sandbox for the test file, and the environment a command reaches it with and no profile (its URL and a token),
 * handed to `ready` before the first test; closed after the file, with its temporary folders.
 */
export function useSandboxWithToken(ready: (setup: { sandbox: RunningSandbox; env: Record<string, string> }) => void) {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ready({ sandbox, env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: await fetchToken(sandbox) } });
  });
  afterAll(async () => {
    if (sandbox) await stopTestSandbox(sandbox);
  });
}

/** Closes a sandbox started for a test file and removes the file's temporary folders. */
export async function stopTestSandbox(sandbox: RunningSandbox): Promise<void> {
  await sandbox.close();
  removeTemporaryFolders();
}

/** Request counts per "METHOD /route" since the last reset. */
export async function requestCounts(sandbox: RunningSandbox): Promise<Record<string, number>> {
  const response = await fetch(`${sandbox.url}/_sandbox/requests`);
  return (await response.json()) as Record<string, number>;
}

/**
 * Resolves as the sandbox counts the `count`th request of `route` ("METHOD /route") since its last reset, told by
 * the sandbox as the request arrives: a loop asking GET /_sandbox/requests would take the CPU the run it waits for
 * needs, from the same process that answers that run, and see the request only on its next turn.
 */
export function untilRequestCount(sandbox: RunningSandbox, route: string, count: number): Promise<void> {
  const listeners = sandbox.state.onRequestCounted;
  return new Promise((resolvePromise) => {
    if ((sandbox.state.requestCounts.get(route) ?? 0) >= count) return resolvePromise();
    const listener = (key: string, reached: number) => {
      if (key !== route || reached < count) return;
      listeners.splice(listeners.indexOf(listener), 1);
      resolvePromise();
    };
    listeners.push(listener);
  });
}

export async function resetCounts(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
}

/** A `/_sandbox/...` inspection route's JSON (customers, outbox, settings). */
export async function sandboxJson<T>(sandbox: RunningSandbox, path: string): Promise<T> {
  const response = await fetch(`${sandbox.url}${path}`);
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** Merges store settings into the sandbox's (PUT /_sandbox/settings, JSON Merge Patch). */
export async function patchSandboxSettings(sandbox: RunningSandbox, patch: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (!response.ok) throw new Error(`PUT /_sandbox/settings: HTTP ${response.status} ${await response.text()}`);
}

/** Forgets every customer and the e-mail outbox. */
export async function clearSandboxCustomers(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/customers`, { method: 'DELETE' });
}

/** The environment that makes the CLI log in by itself, without b2bctl login. */
export function credentialsEnv(sandbox: RunningSandbox, password: string = sandboxPassword): Record<string, string> {
  return { B2BCTL_BASE_URL: sandbox.url, B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: password };
}

export async function revokeTokens(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/tokens/revoke`, { method: 'POST' });
}

/**
 * A token straight from the sandbox's token route, without the CLI. Retried, because a sandbox
 * started with fault injection fails and resets its token route like any other.
 */
export async function fetchToken(sandbox: RunningSandbox): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${sandbox.url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: sandboxUser, password: sandboxPassword }),
      });
      if (response.ok) return ((await response.json()) as { access_token: string }).access_token;
      if (attempt >= 20) throw new Error(`the token route answered ${response.status}`);
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}

export const listingRoute = 'GET /sellerModule/listSellers';
export const tokenRoute = 'POST /v1/auth/token';
