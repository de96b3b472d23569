/**
 * refusalMessage: the platform's words first, then the CEP and number sent when its 422 names the address, or the
 * groups sent and where the store lists its own when a 422 names no other documented field.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../../../src/base/errors.js';
import { refusalMessage, type SentFields } from '../../../../src/commands/customer/customer-failures.js';

const refusal = (status: number, message: string) =>
  new PlatformError(status, { method: 'POST', url: 'https://store.example/v1/customer' }, { message });
const address = 'Property [address] with value [] does not pass validation';
const registration = { zipcode: '99999-999', number: '1' };
const group = 'Property [customerGroupList] with value [atacado] does not pass validation';

describe('refusalMessage', () => {
  it.each<[string, PlatformError, SentFields, string]>([
    [
      'the registration address',
      refusal(422, address),
      { customerRegistrationAddress: registration },
      `${address}; the platform refused the address: check its CEP 99999-999 and number 1`,
    ],
    [
      'a lone item of addressList',
      refusal(422, address),
      { addressList: [{ zipcode: '01310-100', number: '10' }] },
      `${address}; the platform refused the address: check its CEP 01310-100 and number 10`,
    ],
    [
      'several addresses: each named',
      refusal(422, address),
      { customerRegistrationAddress: registration, addressList: [{ zipcode: '01310-100', number: '10' }] },
      `${address}; the platform refused an address: check the CEP and number of each (CEP 99999-999, number 1; CEP 01310-100, number 10)`,
    ],
    [
      'a CEP ending -000 sent without street and quarter: the single-CEP town`s fix too',
      refusal(422, address),
      { customerRegistrationAddress: { zipcode: '12460-000', number: '77' } },
      `${address}; the platform refused the address: check its CEP 12460-000 and number 77; if CEP 12460-000 is a whole town's (a single-CEP town), its lookup gives no street or quarter: give customerRegistrationAddress.street and .quarter too`,
    ],
    [
      'a CEP ending -000 sent with street and quarter: no town hint',
      refusal(422, address),
      { customerRegistrationAddress: { zipcode: '12460-000', number: '77', street: 'Rua A', quarter: 'Centro' } },
      `${address}; the platform refused the address: check its CEP 12460-000 and number 77`,
    ],
    [
      'several addresses, one of a single-CEP town without street: that one named by its path',
      refusal(422, address),
      {
        customerRegistrationAddress: registration,
        addressList: [{ zipcode: '12460000', number: '10', street: 'Rua A' }],
      },
      `${address}; the platform refused an address: check the CEP and number of each (CEP 99999-999, number 1; CEP 12460000, number 10); if CEP 12460000 is a whole town's (a single-CEP town), its lookup gives no street or quarter: give addressList.0.street and .quarter too`,
    ],
    [
      'the address with lat/lng: named beside the CEP and number, with why',
      refusal(422, address),
      { customerRegistrationAddress: { ...registration, lat: -23.5, lng: -46.6 } },
      `${address}; the platform refused the address: check its CEP 99999-999 and number 1, and the customerRegistrationAddress.lat/lng -23.5, -46.6 sent: the platform takes lat/lng only when the store has its latitude/longitude feature on, so leave them out if it has not`,
    ],
    [
      'several addresses, one with lat/lng: that one named by its path',
      refusal(422, address),
      {
        customerRegistrationAddress: registration,
        addressList: [{ zipcode: '01310-100', number: '10', lat: -23.5, lng: -46.6 }],
      },
      `${address}; the platform refused an address: check the CEP and number of each (CEP 99999-999, number 1; CEP 01310-100, number 10), and the addressList.0.lat/lng -23.5, -46.6 sent: the platform takes lat/lng only when the store has its latitude/longitude feature on, so leave them out if it has not`,
    ],
    ['no address sent', refusal(422, address), {}, address],
    [
      'another field',
      refusal(422, 'Property [phone] with value [1] does not pass validation'),
      { customerRegistrationAddress: registration },
      'Property [phone] with value [1] does not pass validation',
    ],
    [
      'wording of another form',
      refusal(422, 'the address is invalid'),
      { customerRegistrationAddress: registration },
      'the address is invalid',
    ],
    ['not a 422', refusal(409, address), { customerRegistrationAddress: registration }, address],
    [
      'groups sent, and a 422 naming them',
      refusal(422, group),
      { customerGroupList: ['atacado', 'Sul'] },
      `${group}; customer groups sent: atacado, Sul (\`b2bctl api /lojas/{branch}/grupos --paginate\` lists the store's groups)`,
    ],
    [
      'groups sent, and a 422 in words we do not know',
      refusal(422, 'Grupo inexistente'),
      { customerGroupList: ['atacado'] },
      "Grupo inexistente; customer groups sent: atacado (`b2bctl api /lojas/{branch}/grupos --paginate` lists the store's groups)",
    ],
    [
      'groups sent, and a 422 naming another documented field',
      refusal(422, 'Property [phone] with value [1] does not pass validation'),
      { customerGroupList: ['atacado'] },
      'Property [phone] with value [1] does not pass validation',
    ],
    [
      'groups and an address sent, and a 422 naming the address',
      refusal(422, address),
      { customerRegistrationAddress: registration, customerGroupList: ['atacado'] },
      `${address}; the platform refused the address: check its CEP 99999-999 and number 1`,
    ],
    [
      'groups sent beside other fields, and a 422 in words naming no field: no guess at the groups',
      refusal(422, 'Telefone inválido para o cadastro'),
      { customerRegistrationAddress: registration, customerGroupList: ['Nordeste'] },
      'Telefone inválido para o cadastro',
    ],
    [
      'groups sent, and an errors list naming another field (campo cep): its words alone',
      new PlatformError(
        422,
        { method: 'POST', url: 'https://store.example/v1/customer' },
        { errors: [{ campo: 'cep', mensagem: 'CEP não encontrado' }] },
      ),
      { customerGroupList: ['VIP'] },
      'cep: CEP não encontrado',
    ],
    [
      'groups sent, and an errors list naming them (field customerGroupList.0): the groups hint',
      new PlatformError(
        422,
        { method: 'POST', url: 'https://store.example/v1/customer' },
        { errors: [{ field: 'customerGroupList.0', message: 'unknown group' }] },
      ),
      { customerRegistrationAddress: registration, customerGroupList: ['VIP'] },
      "customerGroupList.0: unknown group; customer groups sent: VIP (`b2bctl api /lojas/{branch}/grupos --paginate` lists the store's groups)",
    ],
    ['groups sent, not a 422', refusal(409, group), { customerGroupList: ['atacado'] }, group],
    ['no groups sent', refusal(422, group), { customerGroupList: [] }, group],
  ])('%s', (_name, error, sent, message) => {
    expect(refusalMessage(error, { sent, groupsRoute: '/lojas/{branch}/grupos' })).toBe(message);
  });
});
