/**
 * What `customer update` and `customer status` tests share: a sandbox holding one customer, a proxy in front of
 * it that answers the customer write routes as each case asks, and a logged-in context whose requests go through it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { run as create } from '../../../src/commands/customer/create.js';
import { createHeader } from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { revokeTokens, type SandboxFixture, useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxyAction, type ScriptedProxy, startScriptedProxy } from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';
import type { TestContext } from '../../support/test-context.js';

export const ana = { document: '529.982.247-25', email: 'ana@example.com' };
/** A valid CPF no customer has. */
export const nobody = '111.444.777-35';

/** A platform answer to the write routes, and whether the CLI may log in again by itself (B2BCTL_PASSWORD). */
export type Fault = '404' | '400' | '422' | '401' | '401 no password' | '500' | '503';

export interface FaultBench {
  fixture: SandboxFixture;
  proxy: ScriptedProxy;
  test: TestContext;
  /** The customer requests (PUT) that reached the proxy, as "METHOD path", the token requests as "token". */
  seen(): string[];
}

/** A sandbox per test; call the returned function inside a test to get the bench for one fault. */
export function useFaultBench(): (fault: Fault) => Promise<FaultBench> {
  const fixture = useSandbox();
  let proxy: ScriptedProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  return async (fault) => {
    const current = fixture();
    const registering = await current.loggedInContext();
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'ana.csv'),
      `${createHeader}\ncpf,${ana.document},Ana,${ana.email},11987654321,Senha#1,01310-100,10\n`,
    );
    const created = await registering.run(create, {
      file: join(folder, 'ana.csv'),
      upsert: false,
      strict: false,
      concurrency: 1,
      dryRun: false,
      skipInvalid: false,
    });
    if (created !== 0) throw new Error(`could not register Ana: ${registering.stderr()}`);
    proxy = await startScriptedProxy(current.sandbox.url, (request): ProxyAction => {
      if (request.method !== 'PUT' || !pathOf(request).startsWith('/v1/customer/')) return undefined;
      if (fault === '400') return { answer: 400, body: 'Bad Request' };
      if (fault === '422')
        return {
          answer: 422,
          body: { status: 'UNPROCESSABLE_ENTITY', message: 'Property [phone] with value [1] does not pass validation' },
        };
      if (fault === '500') return { answer: 500, body: { message: 'Internal Server Error' } };
      if (fault === '503') return { answer: 503, body: { message: 'Service temporarily unavailable' } };
      return undefined;
    });
    const env: Record<string, string> = fault === '401 no password' ? {} : { B2BCTL_PASSWORD: 'sandbox-secret' };
    const test = await current.loggedInContext({ globals: { baseUrl: proxy.url }, env });
    // The sandbox refuses the cached token from now on: the first write is answered 401.
    if (fault.startsWith('401')) await revokeTokens(current.sandbox);
    const seenBy = proxy;
    seenBy.requests.length = 0;
    return {
      fixture: current,
      proxy: seenBy,
      test,
      seen: () =>
        seenBy.requests.map((request) =>
          pathOf(request) === '/v1/auth/token' ? 'token' : `${request.method} ${pathOf(request)}`,
        ),
    };
  };
}

export const loginLine =
  /^error: Not logged in for profile "default": the platform refused its token\. Run B2BCTL_CONFIG_DIR=\S+ b2bctl login --profile default \(or set B2BCTL_PASSWORD so b2bctl logs in again by itself\)\.$/;

/** The login line of a run of `base`.csv that stopped on it, with the line that resumes the run once logged in. */
export function loginThenResumeLine(command: string, base: string): RegExp {
  return new RegExp(
    `${loginLine.source.slice(0, -1)} Then resume with: (?:\\S+ )?b2bctl customer ${command} \\S*${base}\\.csv .*--resume \\S+${base}\\.report-\\d{8}-\\d{6}\\.csv$`,
  );
}

/**
 * How a run ended: the last line of one that stopped (the pattern itself when it matches, for a readable
 * diff), or the report rows of the run of `base`.csv that went through, with only the columns the case names.
 */
export function endOf(stderr: string, folder: string, base: string, row: Record<string, unknown> | RegExp): unknown {
  if (row instanceof RegExp) {
    const last = stderr.trimEnd().split('\n').at(-1) ?? '';
    return row.test(last) ? row : last;
  }
  return readReport(join(folder, onlyReport(folder, base))).map((report) =>
    Object.fromEntries(Object.entries(report).filter(([column]) => column === 'line' || column in row)),
  );
}

/**
 * A case of one platform answer: the fault, the document written, the exit code, the requests that reached the
 * platform (seen()), and how the run ends.
 */
export type AnswerCase<End> = [Fault, string, number, string[], End];

/** What tells the writes apart in their lines: the request of a document, and the word for the write. */
export interface CustomerWrite {
  /** The request that writes `document`, as seen() shows it. */
  write(document: string): string;
  /** The write as a line names it: "update", "change". */
  what: string;
}

/**
 * How a write of one customer (`customer update --document`, `customer status DOC`) ends at each platform answer:
 * the same for every write but for the 404's line (`notFound`) and the line of one that went through after b2bctl
 * logged in again by itself (`done`). The last line of the run is matched.
 */
export function oneCustomerAnswers(
  { write, what }: CustomerWrite,
  lines: { notFound: RegExp; done: RegExp },
): AnswerCase<RegExp>[] {
  return [
    ['404', nobody, 1, [write(nobody)], lines.notFound],
    ['400', ana.document, 1, [write(ana.document)], /^error: PUT \S+ failed with HTTP 400: Bad Request$/],
    ['401', ana.document, 0, [write(ana.document), 'token', write(ana.document)], lines.done],
    ['401 no password', ana.document, 77, [write(ana.document)], loginLine],
    // A 500 may come after the store applied the write: said so, exit 69, as an unanswered single write is.
    [
      '500',
      ana.document,
      69,
      [write(ana.document)],
      new RegExp(
        `^error: Customer 529\\.982\\.247-25: PUT \\S+ failed with HTTP 500: Internal Server Error, which may come after the platform applied the ${what}; sending it again is harmless\\.$`,
      ),
    ],
    [
      '503',
      ana.document,
      69,
      Array(4).fill(write(ana.document)),
      /^error: PUT \S+ kept failing with HTTP 503 after 4 attempts; the platform is unavailable, try again later\.$/,
    ],
  ];
}

/**
 * How a file of one row (`base`.csv, run by `customer COMMAND FILE`) ends at each platform answer: its report row,
 * with the columns the case names, or the last line of a run that stopped. The same for every write but for the
 * row of one that went through after b2bctl logged in again by itself (`done`).
 */
export function fileAnswers(
  { write, what }: CustomerWrite,
  file: { command: string; base: string; done: Record<string, unknown>; notFound?: RegExp },
): AnswerCase<Record<string, unknown> | RegExp>[] {
  return [
    [
      '404',
      nobody,
      1,
      [write(nobody)],
      {
        outcome: 'failed',
        status: '404',
        message: expect.stringMatching(
          file.notFound ?? /^no customer has the document 111\.444\.777-35 in this store \(HTTP 404(: [^)]*)?\)$/,
        ),
      },
    ],
    ['400', ana.document, 1, [write(ana.document)], { outcome: 'failed', status: '400', message: 'Bad Request' }],
    ['401', ana.document, 0, [write(ana.document), 'token', write(ana.document)], file.done],
    ['401 no password', ana.document, 77, [write(ana.document)], loginThenResumeLine(file.command, file.base)],
    // A 500 may come after the store applied the write: unknown (a resume sends it again), not "failed … to fix".
    [
      '500',
      ana.document,
      1,
      [write(ana.document)],
      {
        outcome: 'unknown',
        status: '500',
        message: expect.stringMatching(
          new RegExp(
            `failed with HTTP 500: Internal Server Error, which may come after the platform applied the ${what}$`,
          ),
        ),
      },
    ],
    [
      '503',
      ana.document,
      69,
      Array(4).fill(write(ana.document)),
      new RegExp(`^error: .*--resume \\S+${file.base}\\.report-\\d{8}-\\d{6}\\.csv$`),
    ],
  ];
}
