/**
 * The commit a build names in `--version` (scripts/build-info.mjs), found by git in the folder being built.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCommit } from '../../../scripts/build-info.mjs';
import { requireThat, requireTools } from '../../support/external-tools.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const git = requireTools('git');
const asRoot = requireThat(process.getuid?.() === 0, 'only root can give a folder to another user');

/** A repository of one commit in a folder of its own; its folder ends in /, as the build's own does. */
function repository(): { folder: string; commit: string } {
  const folder = temporaryFolder('b2bctl-build-info-');
  const run = (...args: string[]) => execFileSync('git', args, { cwd: folder, encoding: 'utf8' }).trim();
  run('init', '--quiet');
  writeFileSync(join(folder, 'package.json'), '{}\n');
  run('add', 'package.json');
  run('-c', 'user.name=b2bctl', '-c', 'user.email=b2bctl@example.invalid', 'commit', '--quiet', '-m', 'one');
  return { folder: `${folder}/`, commit: run('rev-parse', '--short=12', 'HEAD') };
}

/** Every file of `folder` given to the user `nobody`'s id, as a checkout another user made. */
function giveAway(folder: string): void {
  const entries = execFileSync('find', [folder], { encoding: 'utf8' }).trim().split('\n');
  for (const entry of entries) chownSync(entry, 65534, 65534);
}

describe('buildCommit', () => {
  it.skipIf(git.missing)(`names HEAD of the folder being built${git.note}`, () => {
    const { folder, commit } = repository();
    expect(buildCommit(folder)).toBe(commit);
    writeFileSync(join(folder, 'package.json'), '{"changed": true}\n');
    expect(buildCommit(folder)).toBe(`${commit}-dirty`);
  });

  it.skipIf(git.missing || asRoot.missing)(
    `names it when another user owns the clone (sudo npm pack), which git calls dubious${git.note}${asRoot.note}`,
    () => {
      const { folder, commit } = repository();
      giveAway(folder);
      expect(buildCommit(folder)).toBe(commit);
    },
  );

  it('is empty outside a clone: the version alone', () => {
    expect(buildCommit(`${temporaryFolder('b2bctl-build-info-')}/`)).toBe('');
  });
});
