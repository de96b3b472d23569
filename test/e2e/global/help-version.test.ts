/**
 * --help and --version of the built binary: the version is the one the build put in it (package.json's, and the
 * commit), a Node too old is refused in one line, and help
 * loads only what it prints (its start-up time is measured in bench/startup.mjs).
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliPath, freshConfigDir, runCli } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const git = requireTools('git');

describe('the built binary', () => {
  it('--help and --version exit 0 on stdout', async () => {
    const help = await runCli(['sellers', 'list', '--help'], { configDir: freshConfigDir() });
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n')[0]).toBe('Usage: b2bctl sellers list [options]');
    expect(help.stderr).toBe('');
    const version = await runCli(['--version'], { configDir: freshConfigDir() });
    expect(version.code).toBe(0);
    const { version: expected } = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(version.stdout).toMatch(
      new RegExp(`^${expected.replaceAll('.', '\\.')}( \\(commit [0-9a-f]{12}(-dirty)?\\))?\n$`),
    );
    // Answered by the launcher alone, or by the bundle when other words come with it: the same line.
    const withCommand = await runCli(['--version', 'sellers'], { configDir: freshConfigDir() });
    expect(withCommand.stdout).toBe(version.stdout);
  });

  it.skipIf(git.missing)(`--version names the commit the build came from, as git names it${git.note}`, async () => {
    const version = await runCli(['--version'], { configDir: freshConfigDir() });
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    // -dirty: tracked files had changed since that commit.
    expect(version.stdout).toMatch(new RegExp(` \\(commit ${commit}(-dirty)?\\)\n$`));
  });

  it('says in one line, exit 69, that a clone is not built yet (npm install builds nothing)', async () => {
    const clone = temporaryFolder();
    mkdirSync(join(clone, 'bin'));
    // The launcher and the modules it loads before dist/: what a clone has before `npm run build`.
    for (const file of ['b2bctl.js', 'supported-node.js', 'private-compile-cache.js'])
      copyFileSync(join(dirname(cliPath), file), join(clone, 'bin', file));
    for (const args of [['--version'], ['sellers', 'list']]) {
      const result = await new Promise<{ code: number | null; stderr: string }>((settle) => {
        // The bare line (B2BCTL_LOG_FORMAT=plain): its time off a terminal is the Node refusal's test below.
        const env = { ...process.env, B2BCTL_LOG_FORMAT: 'plain' };
        execFile(process.execPath, [join(clone, 'bin', 'b2bctl.js'), ...args], { env }, (error, _stdout, stderr) =>
          settle({ code: error ? (error.code as number) : 0, stderr }),
        );
      });
      expect(result).toEqual({
        code: 69,
        stderr: `error: b2bctl is not built in ${clone}/: run npm run build there, then try again.\n`,
      });
    }
  });

  it('refuses a Node below the supported patches, or of an odd line, in one line, exit 69, before loading anything', async () => {
    const folder = temporaryFolder();
    const runningAs = (version: string) => {
      const file = join(folder, `node-${version}.mjs`);
      writeFileSync(
        file,
        `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });\n`,
      );
      return { NODE_OPTIONS: `--import ${pathToFileURL(file).href}` };
    };
    const refusals: [string, string[]][] = [
      ['22.12.0', ['--version']],
      ['22.22.1', ['sellers', 'list']],
      ['24.14.0', ['--version']],
      ['25.9.0', ['--version']],
    ];
    for (const [version, args] of refusals) {
      const refused = await runCli(args, { configDir: freshConfigDir(), env: runningAs(version) });
      expect(refused.code).toBe(69);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `error: b2bctl needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26 and later; this is Node.js ${version}. Install a supported Node, or use the single-file b2bctl, which needs no Node.\n`,
      );
    }
    for (const version of ['22.22.2', '24.15.0', '26.0.0']) {
      const accepted = await runCli(['--version'], { configDir: freshConfigDir(), env: runningAs(version) });
      expect(accepted.stderr).toBe('');
      expect(accepted.code).toBe(0);
    }
  });

  it('says the refusal as a log line: its time first off a terminal (a cron log), or JSON as asked', async () => {
    const file = join(temporaryFolder(), 'node-20.mjs');
    writeFileSync(
      file,
      `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.20.2' } });\n`,
    );
    const olderNode = { NODE_OPTIONS: `--import ${pathToFileURL(file).href}` };
    const refusal =
      'b2bctl needs Node.js 22.22.2 or a later 22, 24.15 or a later 24, or 26 and later; this is Node.js 20.20.2. Install a supported Node, or use the single-file b2bctl, which needs no Node.';
    const text = await runCli(['stock', 'push', 'stock.csv', '--quiet'], {
      configDir: freshConfigDir(),
      env: { ...olderNode, B2BCTL_LOG_FORMAT: 'text' },
    });
    expect(text.code).toBe(69);
    expect(text.stderr).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z error: b2bctl needs Node\.js /);
    expect(text.stderr.slice(25)).toBe(`error: ${refusal}\n`);
    for (const [words, env] of [
      [['--version'], { B2BCTL_LOG_FORMAT: 'json' }],
      [['sellers', 'list', '--log-format', 'json'], {}],
      [['sellers', 'list', '--log-format=json'], { B2BCTL_LOG_FORMAT: 'text' }],
    ] as const) {
      const json = await runCli(words, { configDir: freshConfigDir(), env: { ...olderNode, ...env } });
      expect(json.code).toBe(69);
      expect(json.stderr.endsWith('\n') && json.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(json.stderr)).toEqual({ time: expect.stringMatching(/Z$/), level: 'error', message: refusal });
    }
  });
});

describe("a command's help", () => {
  it('loads commander and the flags of that command, and neither the logger, the errors nor another group', async () => {
    const recorded = join(temporaryFolder(), 'loaded-modules.txt');
    const recorder = new URL('../../support/record-loaded-modules.mjs', import.meta.url);
    const help = await runCli(['sellers', 'list', '--help'], {
      configDir: freshConfigDir(),
      env: { NODE_OPTIONS: `--import ${recorder.href}`, B2BCTL_TEST_LOADED_MODULES: recorded },
    });
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    const repo = fileURLToPath(new URL('../../../', import.meta.url));
    const bundled = new Set<string>();
    for (const url of new Set(readFileSync(recorded, 'utf8').split('\n'))) {
      if (!url.startsWith('file:') || !fileURLToPath(url).startsWith(join(repo, 'dist'))) continue;
      const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] };
      for (const source of map.sources) bundled.add(relative(repo, resolve(dirname(fileURLToPath(url)), source)));
    }
    expect([...bundled].filter((source) => source.startsWith('src/')).toSorted()).toEqual([
      'src/base/output-format.ts',
      // Which signals stop a command (SIGINT, SIGTERM, SIGHUP): the handlers are set before any command.
      'src/base/stop-signals.ts',
      // What tells a module gone from a dist/ replaced while a command runs: loaded before the disk can change.
      'src/cli/bundle-gone.ts',
      'src/cli/examples.ts',
      // How the help is laid out (wrapped, descriptions under their flags on a narrow terminal).
      'src/cli/help-layout.ts',
      // The signal handlers are set before any command: which signal is a second Ctrl-C is decided there.
      'src/cli/interruptions.ts',
      'src/cli/main.ts',
      'src/cli/program.ts',
      'src/cli/run-program.ts',
      'src/command-kit/parse.ts',
      'src/commands/sellers/cli.ts',
      // The flag parsers read values with the settings table's parsers, so a flag and a setting say the same words.
      'src/config/setting-parsers.ts',
      'src/domain/duration.ts',
      // The parser of answers.order.statusWords, a setting-parsers.ts parser: the stage names, not the moves' rules.
      'src/domain/store-status-words.ts',
      // The process's EPIPE handler asks it synchronously whether a command says a closed pipe itself (orders poll).
      'src/io/output/closed-output.ts',
      'src/io/output/log-formats.ts',
    ]);
    // A package's source is named from where it was resolved: node_modules/… in a clone, but ../main/node_modules/…
    // in a worktree whose node_modules is a symlink to another checkout's; the package is the word after the last.
    const packages = [...bundled].flatMap((source) => source.split('node_modules/').slice(1).slice(-1));
    expect(new Set(packages.map((inPackage) => inPackage.split('/')[0]))).toEqual(new Set(['commander']));
  });
});

describe('help and usage off a terminal, in the default log format', () => {
  const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

  it('bare b2bctl: the help has no timestamp on any line', async () => {
    const result = await runCli([], { configDir: freshConfigDir(), env: { B2BCTL_LOG_FORMAT: '' } });
    const lines = `${result.stdout}${result.stderr}`.split('\n').filter((line) => line !== '');
    expect(lines.some((line) => line.startsWith('Usage: b2bctl'))).toBe(true);
    expect(lines.filter((line) => timestamp.test(line))).toEqual([]);
  });

  it('a usage error: the error line and the usage after it are timestamped like every log line', async () => {
    const result = await runCli(['login', '--password', 'x'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_LOG_FORMAT: '' },
    });
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`${timestamp.source}error: unknown option '--password': `));
    expect(lines.slice(1).map((line) => line.replace(timestamp, ''))).toEqual([
      'Usage: b2bctl login [options]',
      'Run "b2bctl login --help" for details.',
    ]);
    expect(lines.every((line) => timestamp.test(line))).toBe(true);
  });
});
