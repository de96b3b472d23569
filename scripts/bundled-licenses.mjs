// The licence notices of the packages an esbuild bundle holds, from its metafile: the package has no dependencies
// of its own (everything it runs is in dist/, docs/decisions/0038-one-bundle-no-dependencies.md), so the notices
// the MIT, ISC, BSD and Apache licences ask to keep with their code go beside the bundle, as one file.
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

/** `# …` then, per bundled package (by name, then version), its name, version, licence and the text of its files. */
export function bundledLicenses(metafile, root) {
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
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
    const { name, version, license } = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    const texts = readdirSync(join(root, folder))
      .filter((file) => licenceFile.test(file))
      .toSorted()
      .map((file) => readFileSync(join(root, folder, file), 'utf8').trim());
    return { name, version, license: typeof license === 'string' ? license : 'see its package', texts };
  });
  packages.sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1));
  const sections = packages.map(({ name, version, license, texts }) =>
    [
      `## ${name} ${version} (${license})`,
      ...(texts.length === 0
        ? [`No licence file in the package; its package.json names ${license}.`]
        : texts.map((text) => `\`\`\`text\n${text.replaceAll('```', "'''")}\n\`\`\``)),
    ].join('\n\n'),
  );
  return `# Licences of the packages bundled in b2bctl

b2bctl's package installs no dependencies: the code of these ${packages.length} packages is bundled into its \`dist/\`
files, at the versions below. Each package's licence and notices follow, as the package ships them.

${sections.join('\n\n')}
`;
}
