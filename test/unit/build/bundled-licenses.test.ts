/**
 * The licence notices shipped beside each release form (scripts/bundled-licenses.mjs): the npm package's
 * dist/licenses.md from its one build, and the single executable's dist/bin/licenses.md from its four bundles.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledLicenses, licenceOf } from '../../../scripts/bundled-licenses.mjs';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/** A node_modules folder of packages, each a package.json and the files named. */
function installed(packages: Record<string, { json: object; files?: Record<string, string> }>): string {
  const root = temporaryFolder('b2bctl-licences-');
  for (const [name, { json, files = {} }] of Object.entries(packages)) {
    const folder = join(root, 'node_modules', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...json }));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  }
  return root;
}

describe('licenceOf', () => {
  it.each([
    [{ license: 'MIT' }, 'MIT'],
    [{ license: { type: 'BSD-3-Clause' } }, 'BSD-3-Clause'],
    [{ licenses: [{ type: 'MIT' }] }, 'MIT'],
    [{ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] }, '(MIT OR Apache-2.0)'],
    [{}, undefined],
    [{ license: 42 }, undefined],
  ])('%j: %s', (packageJson, licence) => {
    expect(licenceOf(packageJson)).toBe(licence);
  });
});

describe('bundledLicenses', () => {
  it('the packages of several bundles, once each, with the Node the single file is made of', () => {
    const root = installed({
      alpha: { json: { license: 'MIT' }, files: { LICENSE: 'MIT text of alpha' } },
      beta: { json: { licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] } },
      '@scope/gamma': { json: { license: { type: 'ISC' } } },
      delta: { json: {} },
    });
    const launcher = {
      inputs: { 'node_modules/alpha/index.js': {}, 'node_modules/beta/lib/a.js': {}, 'src/x.ts': {} },
    };
    const thread = { inputs: { 'node_modules/alpha/other.js': {}, 'node_modules/@scope/gamma/index.js': {} } };
    const writer = { inputs: { 'node_modules/delta/index.js': {} } };
    const notices = bundledLicenses([launcher, thread, writer], root, {
      holder: 'the single executable b2bctl-linux-x64',
      node: 'v26.10.0',
    });
    expect([...notices.matchAll(/^## .*$/gm)].map(([heading]) => heading)).toEqual([
      '## @scope/gamma 1.0.0 (ISC)',
      '## alpha 1.0.0 (MIT)',
      '## beta 1.0.0 ((MIT OR Apache-2.0))',
      '## delta 1.0.0 (no licence named)',
    ]);
    expect(notices).toContain('the code of these 4 packages is bundled into the single executable b2bctl-linux-x64');
    expect(notices).toContain('Node.js v26.10.0');
    expect(notices).toContain('https://github.com/nodejs/node/blob/v26.10.0/LICENSE');
    expect(notices).toContain('MIT text of alpha');
    expect(notices).toContain('No licence file in the package, and its package.json names none.');
    expect(notices).not.toContain('see its package');
  });

  it("the npm package's one bundle: its dist/ files, no Node named", () => {
    const root = installed({ alpha: { json: { license: 'MIT' } } });
    const notices = bundledLicenses({ inputs: { 'node_modules/alpha/index.js': {} } }, root);
    expect(notices).toContain('bundled into its `dist/` files');
    expect(notices).not.toContain('Node.js');
  });
});
