// The licence notices of the packages an esbuild bundle holds, from its metafiles: the package has no dependencies
// of its own (everything it runs is in dist/, docs/decisions/0038-one-bundle-no-dependencies.md), and the single
// executable carries the same packages inside it, so the notices the MIT, ISC, BSD and Apache licences ask to keep
// with their code go beside each as one file: dist/licenses.md (scripts/build.mjs), dist/bin/licenses.md
// (scripts/build-binary.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/** The folder of the package an input path of the bundle belongs to (`node_modules/@scope/name`), or undefined. */
export function packageFolderOf(input) {
  const parts = input.split(/[\\/]/);
  const last = parts.lastIndexOf('node_modules');
  if (last < 0 || last + 1 >= parts.length) return undefined;
  const length = parts[last + 1].startsWith('@') ? 3 : 2;
  return parts.slice(0, last + length).join(sep);
}

const licenceFile = /^(licen[cs]e|copying|notice)(\.|-|$)/i;

/**
 * The licence a package.json names: `license` (an SPDX expression), or the older forms `license: { type }` and
 * `licenses: [{ type }]` (either of several); undefined where it names none.
 */
export function licenceOf(packageJson) {
  const { license, licenses } = packageJson;
  if (typeof license === 'string') return license;
  if (typeof license?.type === 'string') return license.type;
  const types = Array.isArray(licenses)
    ? licenses.map((entry) => entry?.type).filter((type) => typeof type === 'string')
    : [];
  if (types.length === 1) return types[0];
  return types.length > 1 ? `(${types.join(' OR ')})` : undefined;
}

/**
 * `# …` then, per package bundled by any of `metafiles` (by name, then version), its name, version, licence and the
 * text of its files. `form` says what holds them (the npm package's `dist/` files, or the single executable, which
 * also holds a Node: `node`, its version, is then named with where its own licence is).
 */
export function bundledLicenses(metafiles, root, form = { holder: 'its `dist/` files' }) {
  const folders = new Set();
  for (const input of [metafiles].flat().flatMap((metafile) => Object.keys(metafile.inputs))) {
    const folder = packageFolderOf(input);
    if (folder !== undefined) folders.add(folder);
  }
  const byRelease = new Map();
  for (const folder of folders) {
    const { name, version } = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    // One release installed in two folders (nested node_modules) is one notice.
    if (!byRelease.has(`${name}@${version}`)) byRelease.set(`${name}@${version}`, folder);
  }
  const packages = [...byRelease.values()].map((folder) => {
    const packageJson = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    const { name, version } = packageJson;
    const texts = readdirSync(join(root, folder))
      .filter((file) => licenceFile.test(file))
      .toSorted()
      .map((file) => readFileSync(join(root, folder, file), 'utf8').trim());
    return { name, version, license: licenceOf(packageJson), texts };
  });
  packages.sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1));
  const sections = packages.map(({ name, version, license, texts }) =>
    [
      `## ${name} ${version} (${license ?? 'no licence named'})`,
      ...(texts.length === 0
        ? [
            license === undefined
              ? 'No licence file in the package, and its package.json names none.'
              : `No licence file in the package; its package.json names ${license}.`,
          ]
        : texts.map((text) => `\`\`\`text\n${text.replaceAll('```', "'''")}\n\`\`\``)),
    ].join('\n\n'),
  );
  const runtime =
    form.node === undefined
      ? ''
      : `\n\nIt also holds Node.js ${form.node} (the MIT licence, and the licences of the libraries Node bundles): their text is Node's LICENSE file, https://github.com/nodejs/node/blob/${form.node}/LICENSE.`;
  return `# Licences of the packages bundled in b2bctl

b2bctl installs no dependencies: the code of these ${packages.length} packages is bundled into ${form.holder}, at the
versions below. Each package's licence and notices follow, as the package ships them.${runtime}

${sections.join('\n\n')}
`;
}
