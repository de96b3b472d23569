/** `b2bctl tax serve`'s refusals at start, in process: no credential in argv, none missing, no open door. */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';

const serve = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(['tax', 'serve', '--rules', 'impostos.csv', '--port', '0', ...args], {
    configDir: freshConfigDir(),
    env,
  });

describe('tax serve at start', () => {
  it.each([
    [
      ['--auth', 'bearer'],
      {},
      '--auth bearer needs B2BCTL_TAX_TOKEN, at least 32 characters (make one with: openssl rand -hex 32)',
    ],
    [
      ['--auth', 'bearer'],
      { B2BCTL_TAX_TOKEN: 'short' },
      '--auth bearer needs B2BCTL_TAX_TOKEN, at least 32 characters',
    ],
    [
      ['--auth', 'basic'],
      { B2BCTL_TAX_USER: 'plataforma' },
      '--auth basic needs B2BCTL_TAX_USER and B2BCTL_TAX_PASSWORD',
    ],
    [
      ['--auth', 'none', '--host', '0.0.0.0'],
      {},
      '--auth none answers anyone who reaches 0.0.0.0: use it on 127.0.0.1 only',
    ],
  ])('%j with %j is refused before anything is read or listened on (exit 2)', async (args, env, message) => {
    const result = await serve(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('reads the shape file from the tax.shape setting when --shape is not given', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { temporaryFolder, removeTemporaryFolders } = await import('../../support/temporary.js');
    const folder = temporaryFolder('b2bctl-tax-shape-setting-');
    writeFileSync(join(folder, 'shape.json'), '{"answer":{"items":"a b"}}');
    const result = await serve(['--auth', 'none'], { B2BCTL_TAX_SHAPE: join(folder, 'shape.json') });
    removeTemporaryFolders();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answer.items must be a dot path such as cart.items');
  });

  it('refuses a shape file that cannot carry a required value (exit 2), naming the key', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { temporaryFolder, removeTemporaryFolders } = await import('../../support/temporary.js');
    const folder = temporaryFolder('b2bctl-tax-shape-');
    writeFileSync(join(folder, 'shape.json'), '{"request":{"ncm":null}}');
    const result = await serve(['--auth', 'none', '--shape', join(folder, 'shape.json')]);
    removeTemporaryFolders();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'request.ncm must be a dot path such as cart.items (it cannot be left out: every answer needs it)',
    );
  });
});
