import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A doc comment sits on the code it documents: an editor shows it on hover and a reader takes it for that code's.
 * Inserting a function between a doc comment and its own left the comment on the new one, or stacked above the new
 * one's, nine times in two reviews, and neither the type checker nor the linter sees it. After the module's first
 * declaration, a `/** … *\/` block must be followed at once by code: not by a blank line or a `//` comment (a lint
 * directive aside); and no doc block anywhere by another. A module's own doc, before its first declaration, may
 * stand alone.
 */
const root = resolve(__dirname, '../../..');

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** A line that declares nothing of the module's own: an import, a re-export, or a part of one. */
const importLike =
  /^(?:import\b|export (?:type )?(?:\*|\{[^}]*\}) from\b|\} from\b|[\w$]+(?: as [\w$]+)?,?$|type [\w$]+,?$)/;

/** The doc comments in `source` that document nothing, as `file:line: followed by …` lines. */
function strayDocComments(file: string, source: string): string[] {
  const lines = source.split('\n');
  const stray: string[] = [];
  let declared = false;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim();
    if (!line.startsWith('/**')) {
      if (line !== '' && !line.startsWith('//') && !line.startsWith('*') && !importLike.test(line)) declared = true;
      continue;
    }
    const start = index;
    while (index < lines.length && !(lines[index] ?? '').includes('*/')) index++;
    const next = (lines[index + 1] ?? '').trim();
    const stacked = next.startsWith('/**');
    const alone = next === '' || (next.startsWith('//') && !next.startsWith('// oxlint'));
    if (stacked || (declared && alone))
      stray.push(`${file}:${start + 1}: followed by ${next === '' ? 'a blank line' : next}`);
  }
  return stray;
}

describe('doc comments', () => {
  it('each doc comment in src/ and test/ sits on the code it documents', () => {
    const stray = [...sourcesUnder('src'), ...sourcesUnder('test')].flatMap((file) =>
      strayDocComments(file, readFileSync(join(root, file), 'utf8')),
    );
    expect(stray).toEqual([]);
  });

  it('finds a doc comment stacked on another, or left alone by a blank line, and lets a module doc stand alone', () => {
    const source = [
      `/** The module. */`,
      ``,
      `import { a } from './a.js';`,
      `/** Also the module, after its imports. */`,
      ``,
      `/** A's. */`,
      `/** B's. */`,
      `function b() {}`,
      `/** Left behind. */`,
      ``,
      `/** C's, with a directive. */`,
      `// oxlint-disable-next-line no-console`,
      `function c() {}`,
      `/**`,
      ` * D's, above a comment.`,
      ` */`,
      `// why d`,
      `function d() {}`,
    ].join('\n');
    expect(strayDocComments('sample.ts', source)).toEqual([
      `sample.ts:6: followed by /** B's. */`,
      'sample.ts:9: followed by a blank line',
      'sample.ts:14: followed by // why d',
    ]);
  });
});
