// What a build embeds about itself: package.json's version, and the commit it was built from, so that
// `b2bctl --version` names the exact source of a binary or a package (a bug report can quote it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const git = (...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** The commit of this repository's HEAD, `-dirty` when tracked files changed since; '' outside a clone of it. */
export function buildCommit() {
  try {
    // A source folder unpacked inside another repository must not take that repository's commit.
    if (fileURLToPath(new URL(`file://${git('rev-parse', '--show-toplevel')}/`)) !== root) return '';
    const commit = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}-dirty`;
  } catch {
    return ''; // no git, or not a clone: the version alone
  }
}

/** `0.1.0 (commit 5bc82f1a2b3c)`: what `--version` prints. */
export function versionLine(commit = buildCommit()) {
  return commit ? `${packageJson.version} (commit ${commit})` : packageJson.version;
}

/** esbuild's `define` for the constants src/globals.d.ts declares. */
export function buildDefines(line = versionLine()) {
  return { B2BCTL_VERSION: JSON.stringify(packageJson.version), B2BCTL_VERSION_LINE: JSON.stringify(line) };
}
