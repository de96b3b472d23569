/**
 * The man pages docs:gen writes (docs/man/*.1): every section a reader of man pages looks for, in the usual order,
 * and clean roff: `groff -ww` (every warning on) prints nothing, so `man` shows them as written.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCommandTree } from '../../../src/cli/reference/command-tree.js';
import { pageName } from '../../../src/cli/reference/markdown.js';
import { requireTools } from '../../support/external-tools.js';
import { repoRoot } from '../../support/sandbox.js';

const folder = join(repoRoot, 'docs', 'man');
const pages = readdirSync(folder).filter((name) => name.endsWith('.1'));

const order = [
  'NAME',
  'SYNOPSIS',
  'DESCRIPTION',
  'COMMANDS',
  'ARGUMENTS',
  'OPTIONS',
  'GLOBAL OPTIONS',
  'EXIT STATUS',
  'ENVIRONMENT',
  'FILES',
  'EXAMPLES',
  'SEE ALSO',
];

describe('man pages', () => {
  it('are one per command', () => {
    expect(pages.length).toBeGreaterThan(30);
    expect(pages).toContain('b2bctl-stock-push.1');
  });

  it.each(pages)('%s has its sections in order, EXIT STATUS, ENVIRONMENT and FILES included', (page) => {
    const text = readFileSync(join(folder, page), 'utf8');
    const sections = [...text.matchAll(/^\.SH (.+)$/gm)].map((match) => match[1] as string);
    for (const needed of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'EXIT STATUS', 'ENVIRONMENT', 'FILES', 'SEE ALSO'])
      expect(sections).toContain(needed);
    expect(sections).toEqual(order.filter((name) => sections.includes(name)));
    // The description is a sentence of its own, not the NAME line's summary repeated in lower case.
    const description = text.split('.SH DESCRIPTION\n')[1]?.split('\n')[0] ?? '';
    expect(description).toMatch(/^[A-Z\\]/);
    expect(text).toContain('.B B2BCTL_CONFIG_DIR');
    expect(text).toContain('.B 141');
  });
});

describe('the man pages of the servers', () => {
  // Their EXIT STATUS said 75 for Ctrl-C and SIGTERM, where every server answers what is in flight and exits 0.
  it.each(['b2bctl-sandbox.1', 'b2bctl-webhook-listen.1', 'b2bctl-tax-serve.1'])(
    '%s says a stop by Ctrl-C, SIGTERM or SIGHUP exits 0',
    (page) => {
      const text = unroff(readFileSync(join(folder, page), 'utf8'));
      expect(text).toContain(
        '.B 0\nall done; a server (sandbox, webhook listen, tax serve) stopped by Ctrl-C, SIGTERM or SIGHUP once the requests in flight are answered\n',
      );
    },
  );
});

/** roff text as a reader sees it: the escapes man.ts writes undone. */
function unroff(text: string): string {
  return text
    .replace(/^\\&/gm, '')
    .replace(/\\\[u([0-9A-F]{4,})\]/g, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replaceAll('\\-', '-')
    .replaceAll('\\e', '\\');
}

describe("each man page's DESCRIPTION", async () => {
  const entries = await readCommandTree();
  it('covers every page', () => {
    expect(entries.map((entry) => `${pageName(entry)}.1`).toSorted()).toEqual(pages.toSorted());
  });

  it.each(entries.map((entry) => [pageName(entry), entry] as const))(
    "%s is the command's own paragraph, not its NAME line",
    (name, entry) => {
      const text = readFileSync(join(folder, `${name}.1`), 'utf8');
      const summary = unroff((text.split('.SH NAME\n')[1]?.split('\n')[0] ?? '').split(' \\- ')[1] ?? '');
      expect(summary).toBe(entry.summary);
      // The first paragraph: the lines up to the next request (.PP, .SH).
      const paragraph = unroff(text.split('.SH DESCRIPTION\n')[1]?.split(/\n\./)[0] ?? '');
      expect(paragraph).toBe(entry.description);
      // A paragraph of its own: sentences that say more than the summary, which it does not repeat.
      expect(paragraph.length).toBeGreaterThan(2 * summary.length);
      expect(paragraph.length).toBeGreaterThan(150);
      expect(paragraph).toMatch(/^[A-Z][^]*\.$/);
      expect(paragraph.toLowerCase()).not.toContain(summary.toLowerCase());
    },
  );
});

const groff = requireTools('groff');

describe.skipIf(groff.missing)(`man pages under groff -ww${groff.note}`, () => {
  it.each(pages)('%s renders without a warning', (page) => {
    // -P -b -P -u: no overstriking for bold and underline, so the text reads plain.
    const rendered = spawnSync('groff', ['-ww', '-man', '-Tutf8', '-P', '-b', '-P', '-u', join(folder, page)], {
      encoding: 'utf8',
    });
    expect(rendered.status).toBe(0);
    expect(rendered.stderr).toBe('');
    expect(rendered.stdout).toMatch(/EXIT STATUS[\s\S]*ENVIRONMENT[\s\S]*FILES/);
  });
});
