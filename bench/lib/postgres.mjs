// A PostgreSQL server for the webhook store's tests and benchmarks (see postgres.d.mts for its types).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of Debian's PostgreSQL server programs (package `postgresql`), if installed. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')));
  const newest = versions.toSorted((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : undefined;
}

/** Why the PostgreSQL tests skip, shown in their titles; undefined when they can run. */
export const postgresMissing = postgresBin()
  ? undefined
  : 'skipped: no PostgreSQL server (apt package postgresql; .ci/run installs it)';

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A PostgreSQL server of its own: a cluster in a temporary folder, on a free loopback port, its socket in that
 * folder. initdb refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startPostgres() {
  const bin = postgresBin();
  if (!bin) throw new Error(postgresMissing);
  const folder = mkdtempSync(join(tmpdir(), 'b2bctl-pg-'));
  const data = join(folder, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(folder, uid, gid);
    chmodSync(folder, 0o700);
  }
  // runuser lives in /usr/sbin, which a PATH made for a cron job or a script may leave out.
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';
  const run = (program, args) =>
    asRoot
      ? execFileSync(runuser, ['-u', 'postgres', '--', join(bin, program), ...args], { stdio: 'pipe', cwd: folder })
      : execFileSync(join(bin, program), args, { stdio: 'pipe', cwd: folder });
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const settings = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c max_connections=60`;
  run('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', settings, '-w', 'start']);
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'webhooks']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/webhooks`,
    socketFolder: folder,
    port,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
