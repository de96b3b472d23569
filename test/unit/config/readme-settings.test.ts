import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everySetting } from '../../../src/config/settings.js';

/**
 * The README's settings table is generated from the settings table (src/config/settings.ts), so the two cannot
 * drift: this test fails when they differ, and `UPDATE_README=1 npx vitest run test/unit/config/readme-settings.test.ts`
 * rewrites the README's table from the code.
 */
const readmePath = resolve(__dirname, '../../../README.md');
const begin =
  '<!-- settings-table: generated from src/config/settings.ts (UPDATE_README=1, see test/unit/config/readme-settings.test.ts) -->';
const end = '<!-- /settings-table -->';

const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;
const cell = (text: string) => text.replaceAll('|', '\\|');

function generatedTable(): string {
  const rows = everySetting.map((definition) =>
    [
      code(definition.key),
      definition.env ? code(definition.env) : '',
      definition.defaultValue !== undefined ? code(definition.defaultValue) : '',
      cell(definition.parser?.expects ?? 'text'),
      cell(definition.description),
    ].join(' | '),
  );
  return [
    '| key | env | default | value | meaning |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

describe('README settings table', () => {
  it('is the settings table of the code, row for row', () => {
    const readme = readFileSync(readmePath, 'utf8');
    const start = readme.indexOf(begin);
    const stop = readme.indexOf(end);
    expect(start, `the README holds the marker ${begin}`).toBeGreaterThan(-1);
    expect(stop).toBeGreaterThan(start);
    const expected = `${begin}\n\n${generatedTable()}\n\n${end}`;
    const actual = readme.slice(start, stop + end.length);
    if (process.env.UPDATE_README === '1' && actual !== expected) {
      writeFileSync(readmePath, readme.slice(0, start) + expected + readme.slice(stop + end.length));
      return;
    }
    expect(actual).toBe(expected);
  });
});
