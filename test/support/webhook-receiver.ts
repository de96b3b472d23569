import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inbox, type InboxRecord, inboxFileName } from '../../src/webhook/inbox.js';
import {
  defaultReceiverPaths,
  type ReceiverOptions,
  type RunningReceiver,
  startReceiver,
} from '../../src/webhook/receiver.js';
import { temporaryFolder } from './temporary.js';

export const clientId = 'erp-client';
export const clientSecret = 'receiver-s3cret';

export interface TestReceiver {
  url: string;
  directory: string;
  inbox: Inbox;
  receiver: RunningReceiver;
  stored: InboxRecord[];
  /** The inbox file's records, read from disk. */
  onDisk(): InboxRecord[];
  close(): Promise<void>;
}

// The receiver tests' folders are the shared temporary ones.
export { removeTemporaryFolders as removeReceiverFolders, temporaryFolder } from './temporary.js';

/** The records of an inbox file on disk. */
export function inboxOnDisk(directory: string): InboxRecord[] {
  return readFileSync(join(directory, inboxFileName), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as InboxRecord);
}

/** A receiver in process on a free loopback port over a fresh inbox folder (or the given one). */
export async function startTestReceiver(
  overrides: Partial<ReceiverOptions> = {},
  directory = temporaryFolder(),
): Promise<TestReceiver> {
  const inbox = overrides.inbox ?? (await Inbox.open(directory));
  const stored: InboxRecord[] = [];
  const receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    clientId,
    clientSecret,
    tokenTtlSeconds: 3600,
    paths: defaultReceiverPaths,
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: 10_000,
    onStored: (record) => stored.push(record),
    ...overrides,
    inbox,
  });
  return {
    url: receiver.url,
    directory,
    inbox,
    receiver,
    stored,
    onDisk: () => inboxOnDisk(directory),
    async close() {
      await receiver.close();
      await inbox.close();
    },
  };
}

/** A token from the receiver in the Basic style. */
export async function receiverToken(url: string, id = clientId, secret = clientSecret): Promise<string> {
  const answer = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (answer.status !== 200) throw new Error(`token: HTTP ${answer.status}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** POSTs an event body (text as is, anything else as JSON) with a Bearer token. */
export function postEvent(
  url: string,
  kind: 'customers' | 'orders',
  body: unknown,
  token: string | undefined,
  contentType = 'application/json',
): Promise<Response> {
  return fetch(`${url}/webhooks/${kind}`, {
    method: 'POST',
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
