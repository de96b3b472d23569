/**
 * The man pages docs:gen writes (docs/man/*.1): every section a reader of man pages looks for, in the usual order,
 * and clean roff: `groff -ww` (every warning on) prints nothing, so `man` shows them as written.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
