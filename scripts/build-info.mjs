// What a build embeds about itself: package.json's version, and the commit it was built from, so that
// `b2bctl --version` names the exact source of a binary or a package (a bug report can quote it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * git in `folder`, trusting it though another user owns it: a clone built by root (`sudo npm pack`, a container
 * building a mounted checkout) was "dubious ownership" to git, which answered nothing, and the package's --version
 * named no commit (a user test). The build runs this tree's own scripts already: its git config is no more to fear.
 */
const gitIn =
  (folder) =>
  (...args) =>
    execFileSync('git', ['-c', `safe.directory=${folder.replace(/\/$/, '')}`, ...args], {
      cwd: folder,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();

/** The commit of HEAD in `folder` (ending in /), `-dirty` when tracked files changed since; '' outside a clone of it. */
export function buildCommit(folder = root) {
  const git = gitIn(folder);
  try {
    // A source folder unpacked inside another repository must not take that repository's commit.
    if (fileURLToPath(new URL(`file://${git('rev-parse', '--show-toplevel')}/`)) !== folder) return '';
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
