/**
 * `npm test` passes on any machine where `npm install` works: a test that runs a program npm does not install skips,
 * saying why, where the program is missing. Checked twice: the completion tests run in a child vitest whose PATH
 * holds no shell at all, and every test file that starts a program by name goes through test/support/external-tools.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onPath } from '../../support/external-tools.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

interface VitestReport {
  numFailedTests: number;
  numPendingTests: number;
  testResults: { assertionResults: { status: string; fullName: string }[] }[];
}

/** Programs every POSIX system has, and npm and node (there wherever `npm install` works): started without a check. */
const everywhere = new Set(['sh', 'mkfifo', 'npm', 'node']);

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A source without its comments: a module whose comment names requireTools does not call it. */
function withoutComments(source: string): string {
  return source.replaceAll(/\/\*[\s\S]*?\*\//g, '').replaceAll(/^\s*\/\/.*$/gm, '');
}

describe('tests that need a program npm does not install', () => {
  it('skip, naming the missing program, when the PATH lacks it (zsh and fish completion, in a child vitest)', () => {
    const folder = temporaryFolder();
    const emptyPath = join(folder, 'bin');
    mkdirSync(emptyPath);
    const reportFile = join(folder, 'report.json');
    const child = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        'test/e2e/completion/zsh-fish.test.ts',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${reportFile}`,
      ],
      // Its own temporary folder: the child's files, all skipped, run no afterAll to remove their folders.
      { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, PATH: emptyPath, TMPDIR: folder } },
    );
    // The child's stderr in the failure message when it did not pass.
    expect({ status: child.status, stderr: child.status === 0 ? '' : child.stderr }).toEqual({ status: 0, stderr: '' });
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as VitestReport;
    const results = report.testResults.flatMap((file) => file.assertionResults);
    expect(report.numFailedTests).toBe(0);
    expect(results.length).toBeGreaterThan(0);
    expect(report.numPendingTests).toBe(results.length);
    for (const { status, fullName } of results) {
      expect(status).toBe('skipped');
      expect(fullName).toMatch(/\(skipped: (zsh|fish) is not installed here; \.ci\/run installs it\)/);
    }
    expect(child.stdout + child.stderr).toContain('skipping tests: zsh is not installed here');
  }, 60_000);

  it('are found on the PATH only as executable files', () => {
    expect(onPath('node', join(process.execPath, '..'))).toBe(true);
    expect(onPath('node', temporaryFolder())).toBe(false);
    expect(onPath('node', '')).toBe(false);
  });

  it('go through requireTools, requireThat or onPath in every test file that starts a program by name', () => {
    const starts = /\b(?:spawn|spawnSync|execFile|execFileSync)\(\s*'([^']+)'/g;
    const programsStarted = (source: string) =>
      [...source.matchAll(starts)].map((match) => match[1] as string).filter((program) => !everywhere.has(program));
    const checks = /\b(?:requireTools|requireThat|onPath)\(/;
    // A support module that starts a program (soffice) and leaves the check to its callers (pseudo-terminal.ts
    // checks for script itself) starts it for every test file that imports it.
    const supportStarts = new Map(
      readdirSync(join(repoRoot, 'test', 'support'))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => [name, readFileSync(join(repoRoot, 'test', 'support', name), 'utf8')] as const)
        .filter(([, source]) => !checks.test(withoutComments(source)))
        .map(([name, source]) => [name.replace(/\.ts$/, '.js'), programsStarted(source)] as const)
        .filter(([, programs]) => programs.length > 0),
    );
    expect([...supportStarts.keys()]).toContain('libreoffice.js');
    const unchecked = testFiles(join(repoRoot, 'test')).flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      const imported = [...supportStarts].filter(([module]) => source.includes(`/support/${module}'`));
      const needed = [...programsStarted(source), ...imported.flatMap(([, programs]) => programs)];
      // onPath: the file falls back on something of its own (a committed certificate) when the program is missing.
      const checked = checks.test(source);
      return needed.length > 0 && !checked
        ? [
            `${relative(repoRoot, file)} starts ${needed.join(', ')}: skip it with requireTools (test/support/external-tools.ts)`,
          ]
        : [];
    });
    expect(unchecked).toEqual([]);
  });
});
