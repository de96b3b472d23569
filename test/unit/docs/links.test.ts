/**
 * The README and the pages under docs/ are read from a clone: every relative link must name a file or folder of
 * the repository (and a heading of it, after `#`), and none may point readers at the working documents the
 * project was built from, which are not in the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/sandbox.js';

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const pages = [
  ...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/README.md'].map((name) => join(repoRoot, name)),
  ...markdownFiles(join(repoRoot, 'docs')),
];

/** The text outside fenced code blocks and code spans, where a `](…)` is a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/``[^`]*``|`[^`\n]*`/g, '');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(path: string): Set<string> {
  const headings = readFileSync(path, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

/** Each relative link of a page that does not resolve, as `page: target (why)`. */
function brokenLinks(page: string, text = readFileSync(page, 'utf8')): string[] {
  const targets = [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] as string);
  return targets.flatMap((target) => {
    if (/^[a-z][a-z+.-]*:/i.test(target)) return [];
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
    const where = `${relative(repoRoot, page)}: ${target}`;
    if (!file.startsWith(repoRoot) || !existsSync(file)) return [`${where} (no such file in the repository)`];
    if (anchor === undefined || statSync(file).isDirectory()) return [];
    return anchorsIn(file).has(anchor) ? [] : [`${where} (no heading with that anchor)`];
  });
}

/** The papers the project was built from, which are not in the repository (spelt in pieces so this file is not one). */
const workingDocuments = new RegExp(
  ['DESIGN', 'platform-spec', 'domain-brazil'].map((name) => `${name}\\.md`).join('|'),
  'i',
);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return /\.(ts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

const sources = [...sourceFiles(join(repoRoot, 'src')), ...sourceFiles(join(repoRoot, 'test'))].filter(
  (file) => !file.endsWith(join('docs', 'links.test.ts')),
);

/**
 * Each `docs/…` page a source file cites that does not resolve, and each heading quoted after it
 * (`docs/platform.md, "Logging in"`) that the page does not have.
 */
function brokenCitations(file: string, text = readFileSync(file, 'utf8')): string[] {
  const citations = [...text.matchAll(/\b(docs\/(?:[\w.-]+\/)*(?:[\w.-]+\.md\b)?)(?:, "([^"]+)")?/g)];
  return citations.flatMap(([, path = '', heading]) => {
    const target = join(repoRoot, path);
    const where = `${relative(repoRoot, file)}: ${path}`;
    if (!existsSync(target)) return [`${where} (no such file in the repository)`];
    if (heading === undefined || !path.endsWith('.md')) return [];
    return anchorsIn(target).has(anchorOf(heading)) ? [] : [`${where}, "${heading}" (no such heading)`];
  });
}

describe('references in src/ and test/', () => {
  it('reads the sources it checks', () => {
    expect(sources.map((file) => relative(repoRoot, file))).toEqual(
      expect.arrayContaining([join('src', 'context.ts'), join('test', 'support', 'sandbox.ts')]),
    );
  });

  it('every docs/ page a comment cites exists, with the heading it quotes', () => {
    expect(sources.flatMap((file) => brokenCitations(file))).toEqual([]);
  });

  it('the checker finds a missing page and a missing heading, and passes a good citation', () => {
    const text = '// docs/gone.md; docs/platform.md, "Logging in"; docs/platform.md, "No such heading"';
    expect(brokenCitations(join(repoRoot, 'src', 'x.ts'), text)).toEqual([
      `${join('src', 'x.ts')}: docs/gone.md (no such file in the repository)`,
      `${join('src', 'x.ts')}: docs/platform.md, "No such heading" (no such heading)`,
    ]);
  });

  it('no source names the working documents the project was built from', () => {
    const naming = sources.filter((file) => workingDocuments.test(readFileSync(file, 'utf8')));
    expect(naming.map((file) => relative(repoRoot, file))).toEqual([]);
  });
});

describe('links in the README and docs/', () => {
  it('reads the pages it checks', () => {
    expect(pages.map((page) => relative(repoRoot, page))).toEqual(
      expect.arrayContaining(['README.md', 'docs/input-files.md', 'docs/commands/b2bctl-stock-push.md']),
    );
  });

  it('every relative link names a file (and heading) of the repository', () => {
    expect(pages.flatMap((page) => brokenLinks(page))).toEqual([]);
  });

  it('the checker finds a missing file and a missing heading, and passes a good link', () => {
    const text = '[a](gone.md) [b](../README.md#exit-codes) [c](../README.md#no-such-heading) `[d](in-code.md)`';
    expect(brokenLinks(join(repoRoot, 'docs', 'page.md'), text)).toEqual([
      'docs/page.md: gone.md (no such file in the repository)',
      'docs/page.md: ../README.md#no-such-heading (no heading with that anchor)',
    ]);
    expect(anchorOf('Checking a store: `b2bctl doctor`')).toBe('checking-a-store-b2bctl-doctor');
  });

  it('no page names the working documents the project was built from', () => {
    const naming = pages
      .filter((page) => workingDocuments.test(readFileSync(page, 'utf8')))
      .map((page) => relative(repoRoot, page));
    expect(naming).toEqual([]);
  });

  it('every decision record has its status line and the usual sections', () => {
    const folder = join(repoRoot, 'docs', 'decisions');
    const records = readdirSync(folder).filter((name) => /^\d{4}-.*\.md$/.test(name));
    const incomplete = records.filter((name) => {
      const text = readFileSync(join(folder, name), 'utf8');
      return !(
        /^# \d{4} /.test(text) &&
        /^Status: /m.test(text) &&
        ['Context', 'Options considered', 'Decision', 'Consequences'].every((section) =>
          new RegExp(`^## ${section}$`, 'm').test(text),
        )
      );
    });
    expect(records.length).toBeGreaterThan(10);
    expect(incomplete).toEqual([]);
  });

  it('the decision index links every record in docs/decisions/', () => {
    const folder = join(repoRoot, 'docs', 'decisions');
    const index = readFileSync(join(folder, 'README.md'), 'utf8');
    const records = readdirSync(folder).filter((name) => name.endsWith('.md') && name !== 'README.md');
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((name) => !index.includes(`](${name})`))).toEqual([]);
  });
});
