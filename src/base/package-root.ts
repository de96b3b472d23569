import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// A namespace: getAssetKeys is newer than Node 22.13 and only called in the single file, built on a Node that has it.
import * as sea from 'node:sea';
import { fileURLToPath } from 'node:url';

/** The b2bctl package folder, found from any module inside it (src/ under tests, dist/ when built). */
export function packageRoot(fromUrl: string = import.meta.url): string {
  let folder = dirname(fileURLToPath(fromUrl));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'b2bctl')
      return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error('cannot find the b2bctl package folder');
    folder = parent;
  }
}

/** The samples shipped with b2bctl, which the sandbox seeds from by default. */
export function defaultSeedDirectory(): string {
  return shippedFolder('samples');
}

/**
 * Whether this b2bctl is the single file, which has no package folder: what it ships it carries inside itself. Asked
 * by `b2bctl docs`, which names the folders of an installed package and has none to name then.
 */
export function isSingleFile(): boolean {
  return sea.isSea();
}

/**
 * A folder shipped with b2bctl: the package's own, or in the single file, which has no package folder, a private
 * temporary copy of the assets it carries under that name (scripts/build-binary.mjs), removed when the process ends.
 */
export function shippedFolder(name: 'samples' | 'docs/man'): string {
  if (!sea.isSea()) return join(packageRoot(), name);
  const folder = mkdtempSync(join(tmpdir(), 'b2bctl-assets-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  for (const key of sea.getAssetKeys().filter((asset) => asset.startsWith(`${name}/`))) {
    const path = join(folder, key.slice(name.length + 1));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, new Uint8Array(sea.getAsset(key)), { flag: 'wx', mode: 0o600 });
  }
  return folder;
}
