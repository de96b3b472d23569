import { normalizeCep } from '../../domain/cep.js';
import type { AddressInput } from '../../domain/customer.js';
import type { CepTable } from './cep-table.js';
import type { StoreSettings } from './settings.js';
import type { Address } from './store.js';

export type AddressDraft = Omit<Address, 'id' | 'dateCreated' | 'lastUpdated'>;

export type AddressResolution = { ok: true; draft: AddressDraft } | { ok: false; reason: string };

/**
 * The ZIP code lookup rules of the platform document: the lookup's street, quarter, city and state
 * replace the sent ones (1) and the sent ones fill only what the lookup lacks (2); street and quarter
 * must not end up empty (3); an unknown CEP is rejected unless the store disabled ZIP validation (4);
 * an addressType other than RESIDENTIAL or BUSINESS, in any case, becomes RESIDENTIAL (5).
 * lat and lng are rejected when the store's lat/lng feature is off ("accepted only when" it is on).
 */
export function resolveAddress(input: AddressInput, settings: StoreSettings, ceps: CepTable): AddressResolution {
  const cep = normalizeCep(input.zipcode);
  if (!cep.ok) return { ok: false, reason: `zipcode: ${cep.reason}` };
  if ((input.lat !== undefined || input.lng !== undefined) && !settings.latLngFeature) {
    return { ok: false, reason: 'lat/lng sent but the store has the latitude/longitude feature off' };
  }
  const found = ceps.get(cep.cep);
  if (!found && settings.zipValidation) return { ok: false, reason: `ZIP code ${cep.cep} not found` };
  const street = firstText(found?.street, input.street);
  const quarter = firstText(found?.quarter, input.quarter);
  if (!street || !quarter)
    return { ok: false, reason: `street and quarter are empty after the ZIP code lookup of ${cep.cep}` };
  const addressType = input.addressType?.trim().toUpperCase();
  const draft: AddressDraft = {
    name: input.name ?? null,
    zipcode: cep.cep,
    street,
    number: input.number,
    complement: input.complement ?? null,
    quarter,
    city: firstText(found?.city, input.city) ?? null,
    state: firstText(found?.state, input.state) ?? null,
    principal: input.principal === true,
    addressType: addressType === 'BUSINESS' ? 'BUSINESS' : 'RESIDENTIAL',
    farmerStateRegistration: input.farmerStateRegistration ?? null,
    howToReachLocationDescription: null,
    responsibleContact: null,
    attributes: {},
  };
  if (input.lat !== undefined) draft.lat = input.lat;
  if (input.lng !== undefined) draft.lng = input.lng;
  return { ok: true, draft };
}

export function addressFromDraft(
  draft: AddressDraft,
  id: number,
  dateCreated: string,
  lastUpdated: string = dateCreated,
): Address {
  const { lat, lng, ...rest } = draft;
  const address: Address = { id, ...rest, dateCreated, lastUpdated };
  // Keep the answer's field order of the document, with lat/lng (not in its table) last.
  if (lat !== undefined) address.lat = lat;
  if (lng !== undefined) address.lng = lng;
  return address;
}

function firstText(...values: (string | undefined)[]): string | undefined {
  for (const value of values) if (value !== undefined && value.trim() !== '') return value.trim();
  return undefined;
}
