/**
 * A real nginx in the foreground, one process, every path in a test folder, in front of a test server: what users
 * put in front of the receiver and between a cron job and the platform. Tests that use it skip where nginx is not
 * installed (`requireTools('nginx')`); `.ci/run` installs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closedPort, untilAnsweringHttp } from './cli.js';

export interface RunningNginx {
  url: string;
  child: ChildProcess;
  /** Ends nginx and waits for it: stopping, it still writes its pid and logs in its folder, which a test then removes. */
  stop(): Promise<void>;
}

/**
 * nginx listening on `host` (any loopback address: Linux answers the whole 127.0.0.0/8), passing every request to
 * `target`, with `serverLines` added to its server block (`client_max_body_size 2k;`, `proxy_set_header …;`).
 */
export async function startNginx(
  dir: string,
  target: string,
  { host = '127.0.0.1', serverLines = [] as readonly string[] } = {},
): Promise<RunningNginx> {
  const port = await closedPort();
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const temp = ['client', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind === 'client' ? 'client_body' : kind}_temp_path ${join(dir, `${kind}-temp`)};`)
    .join('\n    ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')};
events { worker_connections 64; }
http {
  access_log ${join(dir, 'logs', 'access.log')};
  ${temp}
  server {
    listen ${host}:${port};
    ${serverLines.join('\n    ')}
    location / { proxy_pass ${target}; }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await untilAnsweringHttp(host, port);
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  return { url: `http://${host}:${port}`, child, stop };
}
