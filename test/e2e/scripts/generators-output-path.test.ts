import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

const directory = temporaryFolder('b2bctl-generators-');

function npmRun(args: readonly string[]) {
  const result = spawnSync('npm', ['run', ...args], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

// An operator copies `npm run gen:stock -- N FILE` from the docs: the file must hold the CSV, never npm's banner.
describe('the generators write to the path after the count', () => {
  it.each([
    ['gen:stock', ['5'], 'sku,quantity,price,salePrice,warehouse\n'],
    ['gen:stock', ['5', '--excel'], 'sku;quantity;price;salePrice;warehouse\r\n'],
    ['gen:customers', ['3', '--format', 'csv'], 'document'],
    ['gen:customers', ['3', '--start', '9', '--format', 'json'], '[\n'],
  ] as const)('%s %s', (script, args, start) => {
    const file = join(directory, `${script.replace(':', '-')}-${args.join('_')}.out`);
    const [count, ...rest] = args;
    expect(npmRun(['-s', script, '--', count, file, ...rest])).toBe('');
    const written = readFileSync(file, 'latin1');
    expect(written.startsWith(start)).toBe(true);
    expect(written).not.toContain('> b2bctl@');
    // The same bytes as stdout under `npm run -s`, which stays clean of npm's banner.
    expect(npmRun(['-s', script, '--', ...args])).toBe(readFileSync(file, 'utf8'));
  });

  it('gen:sellers writes the checked-in samples/sellers.json to a path', () => {
    const file = join(directory, 'sellers.json');
    npmRun(['-s', 'gen:sellers', '--', file]);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(repoRoot, 'samples', 'sellers.json'), 'utf8'));
  });
});
