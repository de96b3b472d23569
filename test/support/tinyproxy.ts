/**
 * tinyproxy (Debian's; .ci/run installs it) in the foreground on a free loopback port, logging every request it is
 * asked to a file: a real forwarding proxy, whose own error pages (`500 Unable to connect`) no scripted one imitates.
 * Skip the tests that start one with requireTools('tinyproxy') (external-tools.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { untilAnsweringHttp } from './cli.js';

export interface Tinyproxy {
  /** Its address, with the user and password when it asks for them. */
  url: string;
  /** Its log so far. */
  log: () => string;
  child: ChildProcess;
  /** Stops it and waits for its exit (it still writes its log while stopping). */
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts tinyproxy with its files in `dir`; with `basicAuth`, it asks for that user and password. */
export async function startTinyproxy(dir: string, basicAuth?: { user: string; password: string }): Promise<Tinyproxy> {
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  const auth = basicAuth === undefined ? '' : `BasicAuth ${basicAuth.user} ${basicAuth.password}\n`;
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    `Port ${port}\nListen 127.0.0.1\nTimeout 30\nLogFile "${logFile}"\nLogLevel Connect\nMaxClients 50\nAllow 127.0.0.1\n${auth}`,
  );
  writeFileSync(logFile, '');
  const child = spawn('tinyproxy', ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' });
  await untilAnsweringHttp('127.0.0.1', port, {
    method: 'OPTIONS',
    ready: () => readFileSync(logFile, 'utf8').includes('listening on fd'),
  });
  const credentials = basicAuth === undefined ? '' : `${basicAuth.user}:${basicAuth.password}@`;
  return {
    url: `http://${credentials}127.0.0.1:${port}`,
    log: () => readFileSync(logFile, 'utf8'),
    child,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
