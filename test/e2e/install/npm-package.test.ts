/**
 * The npm package as a user gets it: `npm pack`, then `npm install -g` of the tarball into an empty prefix. The
 * installed `b2bctl` (on the Node running the tests) starts the sandbox, logs in, passes doctor and pushes stock; its man pages and
 * completion work; the tarball holds what b2bctl needs and nothing else. npm fetches the dependencies from its
 * cache or the registry, so this file needs the network the first time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/sandbox.js';
import { requireTools } from '../../support/external-tools.js';
import {
  type InstalledCli,
  runInstalled,
  sandboxLoginAndPush,
  forwardedThroughThreads,
  forwardedThroughThreadsResult,
  validatedOnThread,
  validatedOnThreadResult,
} from '../../support/installed-cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const npm = (args: string[], cwd = repoRoot) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    // npm itself runs on the Node under test, which the installed b2bctl's shebang then finds first too.
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const man = requireTools('man');

/** Pages for those who work on b2bctl, linked from CONTRIBUTING.md and not installed. */
const contributorPages = ['src/README.md'];

/** `PAGE -> TARGET` for each relative link of a packed Markdown page whose target is not in the package. */
function brokenLinks(paths: readonly string[]): string[] {
  const broken: string[] = [];
  for (const page of paths.filter((path) => path.endsWith('.md'))) {
    for (const [, target = ''] of readFileSync(join(repoRoot, page), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const path = normalize(join(dirname(page), target)).replace(/\/$/, '');
      if (!paths.includes(path) && !paths.some((packed) => packed.startsWith(`${path}/`)))
        broken.push(`${page} -> ${path}`);
    }
  }
  return broken;
}

describe('the npm package', () => {
  const folder = temporaryFolder('b2bctl-package-');
  const prefix = join(folder, 'prefix');
  let cli: InstalledCli;

  it('packs what b2bctl needs and nothing else, and installs with npm install -g into an empty prefix', () => {
    // --ignore-scripts: the tarball takes dist/ as `npm test` built it, not rebuilt under the other tests' feet.
    const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', folder])) as {
      files: { path: string }[];
    }[];
    const paths = (packed?.files ?? []).map((file) => file.path);
    expect(new Set(paths.map((path) => path.split('/')[0]))).toEqual(
      new Set([
        'bin',
        'dist',
        'docs',
        'samples',
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'SECURITY.md',
        'CONTRIBUTING.md',
      ]),
    );
    expect(paths).toContain('dist/cli.js');
    // Each thread's module, started from beside the bundle (src/base/thread-module.ts).
    expect(paths).toEqual(
      expect.arrayContaining(['dist/validate-thread.js', 'dist/sqlite-writer.js', 'dist/forward-thread.js']),
    );
    expect(paths).toContain('docs/man/b2bctl-stock-push.1');
    // The files the docs' examples read (docs/tax.md's cart among them).
    expect(paths).toEqual(
      expect.arrayContaining(['samples/impostos.csv', 'samples/impostos.map.json', 'samples/carrinho.csv']),
    );
    // Every guide the help texts name (`(docs/sandbox.md)`) is installed, and every page's links lead inside the
    // package, but for the contributors' pages of the source.
    const code = paths.filter((path) => /^dist\/.*\.js$/.test(path));
    const named = new Set(
      code.flatMap((path) => readFileSync(join(repoRoot, path), 'utf8').match(/docs\/[\w-]+\.md/g) ?? []),
    );
    expect([...named].filter((page) => !paths.includes(page))).toEqual([]);
    expect(named.size).toBeGreaterThan(5);
    expect(brokenLinks(paths).filter((link) => !contributorPages.some((page) => link.endsWith(`-> ${page}`)))).toEqual(
      [],
    );
    expect(paths.filter((path) => /^dist\/(bin|sea)\//.test(path))).toEqual([]);
    const tarball = readdirSync(folder).find((name) => /^b2bctl-.*\.tgz$/.test(name)) as string;
    npm([
      'install',
      '--global',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      join(folder, tarball),
    ]);
    expect(existsSync(join(prefix, 'bin', 'b2bctl'))).toBe(true);
    // Everything b2bctl runs is in its dist/: the install adds no package beside it, and the bundled packages'
    // licences come with it, each at the version the lockfile installed here.
    const installed = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(installed)).toEqual(['b2bctl']);
    expect(existsSync(join(installed, 'b2bctl', 'node_modules'))).toBe(false);
    const notices = readFileSync(join(installed, 'b2bctl', 'dist', 'licenses.md'), 'utf8');
    const bundled = [...notices.matchAll(/^## (\S+) (\S+) \(/gm)].map(([, name, version]) => `${name}@${version}`);
    for (const dependency of ['commander', 'undici', 'fastify', 'pg', 'zod', 'csv-parse', 'chalk'])
      expect(bundled).toContainEqual(expect.stringMatching(new RegExp(`^${dependency}@`)));
    const lockedVersions = new Set(
      Object.entries(
        (
          JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
            packages: Record<string, { version?: string }>;
          }
        ).packages,
      ).map(([path, { version }]) => `${path.replace(/^.*node_modules\//, '')}@${version}`),
    );
    expect(bundled.filter((release) => !lockedVersions.has(release))).toEqual([]);
    cli = {
      command: join(prefix, 'bin', 'b2bctl'),
      env: {
        PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: folder,
        NO_COLOR: '1',
        B2BCTL_LOG_FORMAT: 'plain',
        B2BCTL_CONFIG_DIR: join(folder, 'config'),
      },
    };
  }, 300_000);

  it('gives a b2bctl that starts the sandbox, logs in, passes doctor and pushes stock', async () => {
    const version = await runInstalled(cli, ['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+ \(commit [0-9a-f]{12}(-dirty)?\)\n$/);
    const { login, doctor, push, sandbox } = await sandboxLoginAndPush(cli);
    expect(login.stderr).toMatch(/^Logged in to http:\/\/127\.0\.0\.1:\d+ as integration@sandbox\.test/);
    expect(login.code).toBe(0);
    expect(doctor.code).toBe(0);
    expect((JSON.parse(doctor.stdout) as { result: string }[]).filter((check) => check.result === 'fail')).toEqual([]);
    expect(push.closingLine).toMatch(/: 52 applied; exit 0$/);
    expect(push.code).toBe(0);
    expect(sandbox.code).toBe(0);
  });

  it('validates a workbook on its thread, from the files the package ships', async () => {
    expect(await validatedOnThread(cli)).toMatchObject(validatedOnThreadResult);
  });

  it('receives and forwards webhooks on its threads, from the files the package ships', async () => {
    expect(await forwardedThroughThreads(cli)).toMatchObject(forwardedThroughThreadsResult);
  });

  it('gives a completion script that bash loads', async () => {
    const script = await runInstalled(cli, ['completion', 'bash']);
    expect(script.code).toBe(0);
    const file = join(folder, 'b2bctl.bash');
    writeFileSync(file, script.stdout);
    const loaded = execFileSync('bash', ['-c', `source ${file} && complete -p b2bctl`], { encoding: 'utf8' });
    expect(loaded).toMatch(/^complete .* b2bctl$/m);
  });

  it.skipIf(man.missing)(`installs the man pages where man finds them under the prefix${man.note}`, async () => {
    const manPath = join(prefix, 'share', 'man');
    expect(readdirSync(join(manPath, 'man1'))).toContain('b2bctl-stock-push.1');
    // The folder b2bctl docs names for MANPATH, where a prefix's man/ is not on man's own path.
    const docs = await runInstalled(cli, ['docs', '-o', 'json']);
    expect(JSON.parse(docs.stdout)).toEqual({
      guides: join(prefix, 'lib', 'node_modules', 'b2bctl', 'docs'),
      samples: join(prefix, 'lib', 'node_modules', 'b2bctl', 'samples'),
      man: manPath,
    });
    const page = execFileSync('man', ['-P', 'cat', 'b2bctl-stock-push'], {
      encoding: 'utf8',
      env: { ...process.env, MANPATH: manPath, MANWIDTH: '80' },
    });
    expect(page).toMatch(/^B2BCTL-STOCK-PUSH\(1\)/);
    // man justifies the line: any run of spaces between the words.
    expect(page).toMatch(/^NAME\n +b2bctl-stock-push +- +push +a +stock +and +price +file/m);
  });
});
