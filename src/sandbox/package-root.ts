import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

export function defaultSeedDirectory(): string {
  return join(packageRoot(), 'samples');
}
