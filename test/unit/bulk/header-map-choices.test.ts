import { describe, expect, it } from 'vitest';
import { fieldChoices } from '../../../src/bulk/header-map-offer.js';

const fields = ['name', 'tradingName', 'phone', 'customerRegistrationAddress.street', 'notes'];

describe('fieldChoices: what Enter takes when b2bctl asks which field a column is', () => {
  it('a near spelling of a field: that field first (pre-selected), "leave it out" next', () => {
    expect(fieldChoices('Nmae', fields).slice(0, 2)).toEqual([
      { name: 'name', value: 'name' },
      { name: 'leave it out (its data is not sent)', value: '' },
    ]);
  });

  it('a header that only resembles fields: "leave it out" first, then the fields by closeness', () => {
    const choices = fieldChoices('Data de cadastro', fields);
    expect(choices[0]).toEqual({ name: 'leave it out (its data is not sent)', value: '' });
    expect(
      choices
        .slice(1)
        .map((choice) => choice.value)
        .toSorted(),
    ).toEqual(fields.toSorted());
  });
});
