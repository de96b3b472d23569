import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a database that can stop answering mid-run, as a database on a stopped VM, behind a
 * network partition or with its backend stopped by SIGSTOP does: frozen, it takes what the client sends and forwards
 * nothing either way, holding every connection open; thawed, it forwards again (new connections only: what a frozen
 * connection was sent is dropped with it when the client gives up). In front of the sandbox, it holds a run's
 * answers back at the moment a test chooses.
 */
export interface FreezingProxy {
  /** 127.0.0.1 port to connect to instead of the database's. */
  port: number;
  freeze(): void;
  /** Freezes once a client sends bytes holding `text` (that chunk is not forwarded). */
  freezeOn(text: string): void;
  thaw(): void;
  /** Cuts every connection (as a database restart does) once a client sends bytes holding `text`. */
  cutOn(text: string): void;
  /** Resolves when the proxy first holds back what a client sent while frozen. */
  held(): Promise<void>;
  /** How many client connections have hung up while frozen (b2bctl gave up on them). */
  readonly abandoned: number;
  /** How many client connections are open now. */
  readonly open: number;
  close(): Promise<void>;
}

export async function freezingProxy(targetPort: number): Promise<FreezingProxy> {
  let frozen = false;
  let trigger: string | undefined;
  let cutTrigger: string | undefined;
  let abandoned = 0;
  let open = 0;
  let onHeld: (() => void) | undefined;
  const sockets = new Set<Socket>();
  const hold = () => {
    onHeld?.();
    onHeld = undefined;
  };
  const server = createServer((client) => {
    const database = connect(targetPort, '127.0.0.1');
    open += 1;
    let stuck = frozen;
    for (const socket of [client, database]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk: Buffer) => {
      if (cutTrigger !== undefined && chunk.includes(cutTrigger)) {
        for (const socket of sockets) socket.destroy();
        return;
      }
      if (!frozen && trigger !== undefined && chunk.includes(trigger)) frozen = true;
      if (frozen) stuck = true;
      if (stuck) return hold();
      database.write(chunk);
    });
    database.on('data', (chunk: Buffer) => {
      if (frozen) stuck = true;
      if (!stuck) client.write(chunk);
    });
    client.on('close', () => {
      open -= 1;
      if (stuck) abandoned += 1;
      database.destroy();
    });
    database.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => (frozen = true),
    freezeOn: (text) => (trigger = text),
    cutOn: (text) => (cutTrigger = text),
    thaw: () => {
      frozen = false;
      trigger = undefined;
    },
    held: () => new Promise((resolve) => (onHeld = resolve)),
    get abandoned() {
      return abandoned;
    },
    get open() {
      return open;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
