import { describe, expect, it } from 'vitest';
import type { AddressInput } from '../../../../src/domain/customer.js';
import { resolveAddress } from '../../../../src/sandbox/customers/addresses.js';
import type { CepEntry } from '../../../../src/sandbox/customers/cep-table.js';
import { defaultStoreSettings, type StoreSettings } from '../../../../src/sandbox/customers/settings.js';

const ceps = new Map<string, CepEntry>([
  [
    '01310-100',
    { cep: '01310-100', street: 'Avenida Paulista', quarter: 'Bela Vista', city: 'São Paulo', state: 'SP' },
  ],
  ['12460-000', { cep: '12460-000', street: '', quarter: '', city: 'Campos do Jordão', state: 'SP' }],
]);
const zipOff: StoreSettings = { ...defaultStoreSettings, zipValidation: false };
const latLngOn: StoreSettings = { ...defaultStoreSettings, latLngFeature: true };

describe('resolveAddress: the ZIP lookup rules', () => {
  it.each([
    {
      name: '1: the lookup replaces sent street, quarter, city and state; number and complement kept',
      input: {
        zipcode: '01310100',
        number: '1000',
        complement: 'sala 5',
        street: 'Rua Errada',
        quarter: 'Outro',
        city: 'Santos',
        state: 'RJ',
      },
      settings: defaultStoreSettings,
      expected: {
        zipcode: '01310-100',
        street: 'Avenida Paulista',
        quarter: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
        number: '1000',
        complement: 'sala 5',
      },
    },
    {
      name: '2: sent values fill what the lookup lacks (single-CEP town)',
      input: {
        zipcode: '12460-000',
        number: '5',
        street: 'Rua Djalma Forjaz',
        quarter: 'Capivari',
        city: 'Outra',
        state: 'MG',
      },
      settings: defaultStoreSettings,
      expected: { street: 'Rua Djalma Forjaz', quarter: 'Capivari', city: 'Campos do Jordão', state: 'SP' },
    },
    {
      name: '4: an unknown CEP is accepted with sent values when ZIP validation is off',
      input: { zipcode: '99999-999', number: '5', street: 'Rua A', quarter: 'Centro', city: 'Cidade', state: 'RS' },
      settings: zipOff,
      expected: { zipcode: '99999-999', street: 'Rua A', quarter: 'Centro', city: 'Cidade', state: 'RS' },
    },
    {
      name: '4: city and state may stay empty when neither side has them',
      input: { zipcode: '99999-999', number: '5', street: 'Rua A', quarter: 'Centro' },
      settings: zipOff,
      expected: { city: null, state: null },
    },
    {
      name: '5: business in lower case',
      input: { zipcode: '01310-100', number: '1', addressType: 'business' },
      settings: defaultStoreSettings,
      expected: { addressType: 'BUSINESS' },
    },
    {
      name: '5: Residential',
      input: { zipcode: '01310-100', number: '1', addressType: 'Residential' },
      settings: defaultStoreSettings,
      expected: { addressType: 'RESIDENTIAL' },
    },
    {
      name: '5: anything else falls back',
      input: { zipcode: '01310-100', number: '1', addressType: 'WAREHOUSE' },
      settings: defaultStoreSettings,
      expected: { addressType: 'RESIDENTIAL' },
    },
    {
      name: '5: absent falls back',
      input: { zipcode: '01310-100', number: '1' },
      settings: defaultStoreSettings,
      expected: { addressType: 'RESIDENTIAL', principal: false, name: null, complement: null },
    },
    {
      name: 'lat/lng kept when the feature is on',
      input: { zipcode: '01310-100', number: '1', lat: -23.56, lng: -46.65 },
      settings: latLngOn,
      expected: { lat: -23.56, lng: -46.65 },
    },
  ])('$name', ({ input, settings, expected }) => {
    const resolved = resolveAddress(input as AddressInput, settings, ceps);
    expect(resolved.ok).toBe(true);
    expect(resolved.ok && resolved.draft).toMatchObject(expected);
  });

  it.each([
    {
      name: '3: street empty after the merge',
      input: { zipcode: '12460-000', number: '5', quarter: 'Capivari' },
      settings: defaultStoreSettings,
      reason: 'street and quarter are empty after the ZIP code lookup of 12460-000',
    },
    {
      name: '3: quarter blank after the merge',
      input: { zipcode: '12460-000', number: '5', street: 'Rua A', quarter: ' ' },
      settings: defaultStoreSettings,
      reason: 'street and quarter are empty after the ZIP code lookup of 12460-000',
    },
    {
      name: '3: applies with ZIP validation off too',
      input: { zipcode: '99999-999', number: '5', street: 'Rua A' },
      settings: zipOff,
      reason: 'street and quarter are empty after the ZIP code lookup of 99999-999',
    },
    {
      name: '4: an unknown CEP',
      input: { zipcode: '99999-999', number: '5', street: 'Rua A', quarter: 'Centro' },
      settings: defaultStoreSettings,
      reason: 'ZIP code 99999-999 not found',
    },
    {
      name: 'lat/lng with the feature off',
      input: { zipcode: '01310-100', number: '1', lat: -23.56 },
      settings: defaultStoreSettings,
      reason: 'lat/lng sent but the store has the latitude/longitude feature off',
    },
  ])('rejects $name', ({ input, settings, reason }) => {
    expect(resolveAddress(input as AddressInput, settings, ceps)).toEqual({ ok: false, reason });
  });
});
