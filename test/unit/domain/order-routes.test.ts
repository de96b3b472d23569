import { describe, expect, it } from 'vitest';
import {
  defaultOrderRoutes,
  parseOrderRoutes,
  readBody,
  renderBody,
  routePathFor,
} from '../../../src/domain/order-routes.js';

describe('parseOrderRoutes', () => {
  it('keeps the defaults for the actions a file does not give', () => {
    const routes = parseOrderRoutes({ ship: { method: 'put', path: '/x/{id}', body: { code: '{trackingCode}' } } });
    expect(routes.ship).toEqual({ method: 'PUT', path: '/x/{id}', body: { code: '{trackingCode}' } });
    expect(routes.ready).toBe(defaultOrderRoutes.ready);
  });

  it('takes replace routes from the file alone: the sandbox’s are not a store’s', () => {
    expect(parseOrderRoutes({}).replace).toBeUndefined();
    expect(defaultOrderRoutes.replace?.invoice).toMatchObject({ method: 'PUT', path: '/v1/orders/{id}/invoice' });
    const routes = parseOrderRoutes({
      replace: { invoice: { method: 'post', path: '/o/{id}/nfe/substituir', body: { chave: '{invoiceKey}' } } },
    });
    expect(routes.replace).toEqual({
      invoice: { method: 'POST', path: '/o/{id}/nfe/substituir', body: { chave: '{invoiceKey}' } },
    });
  });

  it.each([
    [[], 'a JSON object keyed by action'],
    [{ deliver: {} }, '"deliver" is not an action'],
    [{ replace: [] }, 'replace is an object keyed by action (ready, invoice, ship)'],
    [{ replace: { cancel: {} } }, 'replace."cancel" is not an action whose data an order keeps'],
    [
      { replace: { ship: { method: 'PUT', path: '/o/{id}', body: {} } } },
      'replace.ship.body does not carry {trackingCode}',
    ],
    [{ ready: { method: 'GET', path: '/o/{id}', body: {} } }, 'ready.method is POST or PUT'],
    [{ ready: { method: 'POST', path: 'o/{id}', body: {} } }, 'ready.path is a path starting with /'],
    [{ ready: { method: 'POST', path: '/o/{order}', body: {} } }, '{order} is not one of {id}, {orderId}, {branch}'],
    [{ ready: { method: 'POST', path: '/o/{branch}', body: { n: '{erpNumber}' } } }, 'names no order'],
    [{ ready: { method: 'POST', path: '/o/{id}', body: { n: '{erp}' } } }, 'ready.body: {erp} is not one of'],
    [{ cancel: { method: 'POST', path: '/o/{id}', body: { why: 'x' } } }, 'cancel.body does not carry {reason}'],
    [
      { invoice: { method: 'POST', path: '/o/{id}', body: {} } },
      'invoice.body does not carry {invoiceKey} or {invoiceXml} or {invoiceXmlBase64}',
    ],
  ])('refuses %j: %s', (json, message) => {
    expect(() => parseOrderRoutes(json)).toThrow(message);
  });
});

describe('rendering and reading a move', () => {
  const template = { pedido: { numero: '{erpNumber}', tags: ['{carrier}', 'fixo'] }, situacao: 'PRONTO' };

  it('fills placeholders, keeps literals, drops the fields of absent values', () => {
    expect(renderBody(template, { erpNumber: 'PV-1' })).toEqual({
      pedido: { numero: 'PV-1', tags: ['fixo'] },
      situacao: 'PRONTO',
    });
  });

  it('reads back the values where the template puts them, and refuses another literal', () => {
    expect(readBody(template, { pedido: { numero: 'PV-1' }, situacao: 'PRONTO' })).toEqual({ erpNumber: 'PV-1' });
    expect(readBody(template, { pedido: { numero: 'PV-1' }, situacao: 'CANCELADO' })).toBeUndefined();
  });

  it('encodes path values and says when one is missing', () => {
    const route = { method: 'PUT' as const, path: '/b/{branch}/o/{id}', body: {} };
    expect(routePathFor(route, { id: '1/2', branch: 'SP 1' })).toBe('/b/SP%201/o/1%2F2');
    expect(routePathFor(route, { id: '1' })).toBeUndefined();
  });
});
