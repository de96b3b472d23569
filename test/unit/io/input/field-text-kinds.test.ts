import { describe, expect, it } from 'vitest';
import { customerCatalogue } from '../../../../src/commands/customer/customer-input.js';
import { statusCatalogue } from '../../../../src/commands/customer/status.js';
import { moveCatalogue } from '../../../../src/orders/moves/move-input.js';
import { stockCatalogue } from '../../../../src/commands/stock/stock-input.js';
import type { FieldCatalogue } from '../../../../src/io/input/record-shape.js';
import { itemCatalogue, ruleCatalogue } from '../../../../src/tax/table-file.js';

/**
 * The path-keyed rule the catalogues' text kinds replaced, frozen as it was: a column held a code when its path's
 * last word was one of these, an NCM when it was `ncm`.
 */
const oldCodeFields = new Set([
  'document',
  'zipcode',
  'stateRegistration',
  'farmerStateRegistration',
  'cnae',
  'sku',
  'invoiceKey',
  'trackingCode',
  'erpNumber',
]);
const oldIsCodeField = (path: string) => oldCodeFields.has(path.slice(path.lastIndexOf('.') + 1));
const oldIsNcm = (path: string) => path === 'ncm' || path.endsWith('.ncm');

/** Every catalogue the file readers take, with any list index a header may give, not only the suggested 0. */
const catalogues: Record<string, { catalogue: FieldCatalogue; paths: readonly string[] }> = Object.fromEntries(
  Object.entries({
    'customer create': customerCatalogue('create'),
    'customer update': customerCatalogue('update'),
    'customer status': statusCatalogue,
    'stock push': stockCatalogue,
    'orders update': moveCatalogue,
    'tax table': ruleCatalogue,
    'tax quote --items': itemCatalogue,
  }).map(([name, catalogue]) => [
    name,
    {
      catalogue,
      paths: catalogue.knownPaths.flatMap((path) =>
        path.startsWith('addressList.0.') ? [path, path.replace('.0.', '.7.')] : [path],
      ),
    },
  ]),
);

const pathsOfKind = (kind: string) =>
  Object.fromEntries(
    Object.entries(catalogues).map(([name, { catalogue, paths }]) => [
      name,
      paths.filter((path) => catalogue.textKindOf?.(path) === kind),
    ]),
  );

/**
 * The name tests of typedValue the catalogues' readings replaced, frozen as they were: a boolean at the path `active`
 * read a state's words (ativo/inativo), and text at any path containing "password" kept its spaces.
 */
const oldReading = (path: string, type: string | undefined) => {
  if (type === 'boolean' && path === 'active') return 'active state';
  return type === 'string' && /password/i.test(path) ? 'exact text' : undefined;
};

/** `path: reading` for each path of each catalogue that `readingOf` gives a reading. */
const readingsBy = (readingOf: (catalogue: FieldCatalogue, path: string) => string | undefined) =>
  Object.fromEntries(
    Object.entries(catalogues).map(([name, { catalogue, paths }]) => [
      name,
      paths.flatMap((path) => {
        const reading = readingOf(catalogue, path);
        return reading === undefined ? [] : [`${path}: ${reading}`];
      }),
    ]),
  );

describe('the text kinds and readings each field catalogue declares', () => {
  it('the codes: the same fields the path-keyed set named, catalogue by catalogue', () => {
    const codes = pathsOfKind('code');
    expect(codes).toEqual({
      'customer create': [
        'document',
        'stateRegistration',
        'cnae',
        'customerRegistrationAddress.zipcode',
        'customerRegistrationAddress.farmerStateRegistration',
        'addressList.0.zipcode',
        'addressList.7.zipcode',
        'addressList.0.farmerStateRegistration',
        'addressList.7.farmerStateRegistration',
      ],
      'customer update': [
        'document',
        'stateRegistration',
        'cnae',
        'customerRegistrationAddress.zipcode',
        'customerRegistrationAddress.farmerStateRegistration',
      ],
      'customer status': ['document'],
      'stock push': ['sku'],
      'orders update': ['erpNumber', 'invoiceKey', 'trackingCode'],
      'tax table': [],
      'tax quote --items': ['sku'],
    });
    const oldCodes = Object.fromEntries(
      Object.entries(catalogues).map(([name, { paths }]) => [name, paths.filter(oldIsCodeField)]),
    );
    expect(codes).toEqual(oldCodes);
  });

  it('the NCMs and the address numbers: the fields the path tests named', () => {
    const oldNcms = Object.fromEntries(
      Object.entries(catalogues).map(([name, { paths }]) => [name, paths.filter(oldIsNcm)]),
    );
    expect(pathsOfKind('ncm')).toEqual(oldNcms);
    expect(pathsOfKind('ncm')).toMatchObject({ 'tax table': ['ncm'], 'tax quote --items': ['ncm'] });
    // 27ecca19 moved the address number to the catalogue; it stays the address's number and nothing else.
    expect(pathsOfKind('address number')).toMatchObject({
      'customer create': ['customerRegistrationAddress.number', 'addressList.0.number', 'addressList.7.number'],
      'customer update': ['customerRegistrationAddress.number'],
      'stock push': [],
    });
  });

  it('the readings: the fields the name tests of typedValue read as an active state or exact text', () => {
    const readings = readingsBy((catalogue, path) => catalogue.readingOf?.(path));
    expect(readings).toEqual({
      'customer create': ['password: exact text'],
      'customer update': ['active: active state'],
      'customer status': ['active: active state'],
      'stock push': [],
      'orders update': [],
      'tax table': [],
      'tax quote --items': [],
    });
    expect(readings).toEqual(readingsBy((catalogue, path) => oldReading(path, catalogue.typeOf(path))));
  });

  it('a phone is no code: a Brazilian phone starts with its area code, never a zero', () => {
    for (const mode of ['create', 'update'] as const)
      expect(customerCatalogue(mode).textKindOf?.('phone')).toBeUndefined();
  });
});
