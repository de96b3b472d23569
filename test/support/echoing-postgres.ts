/**
 * A stand-in PostgreSQL server that refuses every login quoting the password it was sent (as a pooler, a proxy or a
 * patched server may): `password authentication failed for user "…" (got "…")`, SQLSTATE 28P01. It refuses TLS
 * (`N` to an SSLRequest), asks for a cleartext password, and keeps what each connection sent, so a test can tell
 * whether TLS was asked for, whether a password crossed in clear, or whether anything connected at all.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

export interface EchoingPostgres {
  port: number;
  /** What came, in order, on every connection: `SSLRequest`, `startup`, `password <the password>`. */
  seen: string[];
  /** Every connection taken. */
  connections: number;
  close(): Promise<void>;
}

/** The SSLRequest code of the protocol's first message (1234 5679). */
const sslRequestCode = 80877103;

/** Starts the stand-in on `host` (a loopback address, or this machine's own address standing in for another's). */
export async function echoingPostgres(host: string): Promise<EchoingPostgres> {
  const sockets = new Set<Socket>();
  const state = { port: 0, seen: [] as string[], connections: 0 };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    answerLogins(socket, state.seen);
  });
  server.listen(0, host);
  await once(server, 'listening');
  state.port = (server.address() as AddressInfo).port;
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return Object.assign(state, { close });
}

/** The protocol's start, as far as a refused login goes: SSLRequest, startup, password, error. */
function answerLogins(socket: Socket, seen: string[]): void {
  let buffered = Buffer.alloc(0);
  let startedUp = false;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!startedUp) {
        if (buffered.length < 8 || buffered.length < buffered.readInt32BE(0)) return;
        const length = buffered.readInt32BE(0);
        const code = buffered.readInt32BE(4);
        buffered = buffered.subarray(length);
        if (code === sslRequestCode) {
          seen.push('SSLRequest');
          socket.write('N');
          continue;
        }
        seen.push('startup');
        startedUp = true;
        socket.write(message('R', int32(3)));
        continue;
      }
      if (buffered.length < 5 || buffered.length < buffered.readInt32BE(1) + 1) return;
      const length = buffered.readInt32BE(1);
      const password = buffered.subarray(5, length).toString('utf8').replace(/\0$/, '');
      seen.push(`password ${password}`);
      const fields = `SFATAL\0C28P01\0Mpassword authentication failed for user "erp" (got "${password}")\0\0`;
      socket.end(message('E', Buffer.from(fields, 'utf8')));
      return;
    }
  });
}

function int32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}

/** One backend message: its type, its length (itself included), its body. */
function message(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
}
