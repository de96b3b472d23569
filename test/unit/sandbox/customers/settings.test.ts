import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, InputError } from '../../../../src/base/errors.js';
import {
  defaultStoreSettings,
  loadStoreSettings,
  mergePatch,
  parseStoreSettings,
} from '../../../../src/sandbox/customers/settings.js';
import { temporaryFolder } from '../../../support/temporary.js';

const folder = temporaryFolder('b2bctl-settings-');

describe('mergePatch (RFC 7396)', () => {
  it.each([
    { name: 'adds and replaces keys', target: { a: 1, b: 2 }, patch: { b: 3, c: 4 }, result: { a: 1, b: 3, c: 4 } },
    { name: 'null removes a key', target: { a: 1, b: 2 }, patch: { a: null }, result: { b: 2 } },
    {
      name: 'merges nested objects',
      target: { a: { x: 1, y: 2 } },
      patch: { a: { y: 3 } },
      result: { a: { x: 1, y: 3 } },
    },
    { name: 'arrays replace', target: { list: [1, 2] }, patch: { list: [3] }, result: { list: [3] } },
    { name: 'a non-object patch replaces all', target: { a: 1 }, patch: [1], result: [1] },
  ])('$name', ({ target, patch, result }) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('leaves the target unchanged', () => {
    const target = { a: { x: 1 } };
    mergePatch(target, { a: { x: 2 } });
    expect(target).toEqual({ a: { x: 1 } });
  });
});

describe('parseStoreSettings', () => {
  it('fills defaults', () => {
    expect(parseStoreSettings({}, 'test')).toEqual(defaultStoreSettings);
  });

  it('numbers link targets without an id by position and defaults externalId to null', () => {
    expect(
      parseStoreSettings({ customerGroups: [{ name: 'Sul' }, { id: 9, name: 'VIP', externalId: 'G9' }] }, 'test')
        .customerGroups,
    ).toEqual([
      { id: 1, name: 'Sul', externalId: null },
      { id: 9, name: 'VIP', externalId: 'G9' },
    ]);
  });

  it.each([
    { name: 'a wrong type', value: { zipValidation: 'no' }, text: 'test: invalid store settings at zipValidation' },
    { name: 'an unknown key', value: { zipValidaton: false }, text: 'test: invalid store settings' },
    {
      name: 'a target without name',
      value: { priceTags: [{ id: 1 }] },
      text: 'test: invalid store settings at priceTags.0.name',
    },
  ])('rejects $name with a ConfigError', ({ value, text }) => {
    expect(() => parseStoreSettings(value, 'test')).toThrow(ConfigError);
    expect(() => parseStoreSettings(value, 'test')).toThrow(text);
  });
});

describe('loadStoreSettings', () => {
  it('reads store-settings.json of the seed folder and merges --settings over it', () => {
    writeFileSync(
      join(folder, 'store-settings.json'),
      JSON.stringify({ ssoConfigIds: [1], priceTags: [{ name: 'Atacado' }] }),
    );
    const override = join(folder, 'override.json');
    writeFileSync(override, JSON.stringify({ zipValidation: false, ssoConfigIds: [7, 8] }));
    expect(loadStoreSettings(folder, override)).toEqual({
      ...defaultStoreSettings,
      zipValidation: false,
      ssoConfigIds: [7, 8],
      priceTags: [{ id: 1, name: 'Atacado', externalId: null }],
    });
  });

  it('uses the defaults when the seed folder has no settings', () => {
    const empty = mkdtempSync(join(folder, 'empty-'));
    expect(loadStoreSettings(empty)).toEqual(defaultStoreSettings);
  });

  it('says which file is missing, unreadable JSON or invalid', () => {
    expect(() => loadStoreSettings(folder, join(folder, 'missing.json'))).toThrow(InputError);
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{"zipValidation":');
    expect(() => loadStoreSettings(folder, broken)).toThrow(`${broken} is not valid JSON`);
    const invalid = join(folder, 'invalid.json');
    writeFileSync(invalid, '{"latLngFeature":1}');
    expect(() => loadStoreSettings(folder, invalid)).toThrow(
      /invalid store settings at latLngFeature.*Fix the file passed to --settings/,
    );
  });
});
