/**
 * The single file as a user gets it: `npm run build:binary` makes dist/bin/b2bctl-<platform>-<arch>, which runs with
 * an empty environment (`env -i`: no Node on the PATH, no HOME): completion, the man pages, and the sandbox, a login
 * and a stock push. The build needs a Node with --build-sea (26; on 22 or 24, Node 26 from the cache folder .ci/run
 * fills, or B2BCTL_SEA_NODE); where there is none the file skips, saying so.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireThat } from '../../support/external-tools.js';
import {
  type InstalledCli,
  runInstalled,
  sandboxLoginAndPush,
  forwardedThroughThreads,
  forwardedThroughThreadsResult,
  validatedOnThread,
  validatedOnThreadResult,
} from '../../support/installed-cli.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const cache =
  process.env.B2BCTL_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'b2bctl-node');
const seaNode =
  major > 25 || (major === 25 && minor >= 5)
    ? process.execPath
    : (process.env.B2BCTL_SEA_NODE ?? join(cache, 'node-26', 'node_modules', 'node', 'bin', 'node'));
const buildable = requireThat(
  process.platform === 'linux' && existsSync(seaNode),
  `no Node with --build-sea here (Node ${process.versions.node}; no ${seaNode}); .ci/run installs Node 26 there`,
);
const binary = join(repoRoot, 'dist', 'bin', `b2bctl-${process.platform}-${process.arch}`);

describe.skipIf(buildable.missing)(`the single executable${buildable.note}`, () => {
  const folder = temporaryFolder('b2bctl-single-');
  // Copied as a user installs the downloaded file (README): a folder of their own, made executable.
  const installed = join(folder, 'bin', 'b2bctl');
  // Only where b2bctl keeps its profile; `env -i` otherwise: no PATH, no HOME, no NODE_OPTIONS.
  const cli: InstalledCli = { command: installed, env: { B2BCTL_CONFIG_DIR: join(folder, 'config') } };

  it('is built by npm run build:binary', () => {
    execFileSync('npm', ['run', 'build:binary'], {
      cwd: repoRoot,
      env: { ...process.env, B2BCTL_SEA_NODE: seaNode },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    expect(statSync(binary).mode & 0o111).not.toBe(0);
    // The notices of the packages the file bundles, and of its Node, go beside it, as the npm package's dist/ has them.
    const notices = readFileSync(join(dirname(binary), 'licenses.md'), 'utf8');
    for (const dependency of ['commander', 'undici', 'fastify', 'pg', 'zod'])
      expect(notices).toMatch(new RegExp(`^## ${dependency} `, 'm'));
    expect(notices).toMatch(/Node\.js v\d+\.\d+\.\d+/);
    mkdirSync(dirname(installed));
    copyFileSync(binary, installed);
    chmodSync(installed, 0o755);
  }, 300_000);

  it('runs with an empty environment: version, completion and the man pages', async () => {
    const version = await runInstalled(cli, ['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+ \(commit [0-9a-f]{12}(-dirty)?\)\n$/);
    const completion = await runInstalled(cli, ['completion', 'bash']);
    expect(completion.code).toBe(0);
    writeFileSync(join(folder, 'b2bctl.bash'), completion.stdout);
    const loaded = execFileSync('bash', ['-c', `source ${join(folder, 'b2bctl.bash')} && complete -p b2bctl`], {
      encoding: 'utf8',
    });
    expect(loaded).toMatch(/^complete .* b2bctl$/m);
    const man = await runInstalled(cli, ['docs', 'man', join(folder, 'man')]);
    expect(man.code).toBe(0);
    const shipped = readdirSync(join(repoRoot, 'docs', 'man'));
    expect(readdirSync(join(folder, 'man', 'man1')).toSorted()).toEqual(shipped.toSorted());
  });

  it('validates a workbook on its thread, started from the module the file carries', async () => {
    expect(await validatedOnThread(cli)).toMatchObject(validatedOnThreadResult);
  });

  it('receives and forwards webhooks on its threads, started from the modules the file carries', async () => {
    expect(await forwardedThroughThreads(cli)).toMatchObject(forwardedThroughThreadsResult);
  });

  it('starts the sandbox, logs in, passes doctor and pushes stock with an empty environment', async () => {
    const { login, doctor, push, sandbox } = await sandboxLoginAndPush(cli);
    expect(login.stderr).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ as integration@sandbox\.test/);
    expect(login.code).toBe(0);
    expect(doctor.code).toBe(0);
    expect((JSON.parse(doctor.stdout) as { result: string }[]).filter((check) => check.result === 'fail')).toEqual([]);
    expect(push.closingLine).toMatch(/: 52 applied; exit 0$/);
    expect(push.code).toBe(0);
    expect(sandbox.code).toBe(0);
  });
});
