import type { Context } from '../../context.js';
import { isSingleFile, packageRoot } from '../../base/package-root.js';
import { join } from 'node:path';

export type WhereOptions = Record<string, never>;

/**
 * `b2bctl docs`: where the installed guides and samples are. An npm install puts them under the package's folder,
 * which `npm root -g` does not find under another `--prefix`, and the README's `samples/` and `--help`'s
 * `docs/*.md` are relative to it (a user test). The folders go to stdout, one a line after its label.
 */
export async function run(_options: WhereOptions, context: Context): Promise<void> {
  if (isSingleFile()) {
    context.io.stdout.write(
      [
        'guides   not in the single-file b2bctl: docs/*.md of the npm package or the source',
        'samples  inside the single file, where the sandbox seeds from them: copy them from the npm package or the source',
        'man      b2bctl docs man FOLDER writes the man pages',
        '',
      ].join('\n'),
    );
    return;
  }
  const root = packageRoot();
  context.io.stdout.write(
    [
      `guides   ${join(root, 'docs')}`,
      `samples  ${join(root, 'samples')}`,
      `man      ${join(root, 'docs', 'man')}`,
      '',
    ].join('\n'),
  );
}
