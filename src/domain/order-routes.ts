/**
 * The order routes file: per action, the method, the path template and the body template of the request that moves
 * an order on. The platform names these routes without showing them, so a store's own are given in this file; the
 * defaults are the sandbox's. Pure: parsing, rendering a request, and reading a body back (the sandbox's side).
 *
 * A body template is JSON whose string values `"{name}"` are replaced by the move's values (an absent value drops
 * its field); any other value is sent as written (`"status": "READY_TO_SHIP"`).
 */
import { keptFieldOf, type OrderAction, orderActions, type ReplaceableAction } from './order-stages.js';

export type OrderRouteMethod = 'POST' | 'PUT';

export interface OrderRoute {
  method: OrderRouteMethod;
  /** `/v1/orders/{id}/status`; `{id}`, `{orderId}` and `{branch}` are the path's placeholders. */
  path: string;
  body: unknown;
}

/**
 * A route per action, and the routes that correct what an order already holds (`--replace`): another ERP number,
 * NF-e or tracking code for an order that took that move. The sandbox's are used only without a routes file.
 */
export type OrderRoutes = Readonly<Record<OrderAction, OrderRoute>> & {
  readonly replace?: Readonly<Partial<Record<ReplaceableAction, OrderRoute>>>;
};

/** Placeholders of a path. */
export const pathPlaceholders = ['id', 'orderId', 'branch'] as const;
/** Placeholders of a body: the move's fields, the XML as text or base64, and the path's. */
export const bodyPlaceholders = [
  ...pathPlaceholders,
  'erpNumber',
  'invoiceKey',
  'invoiceXml',
  'invoiceXmlBase64',
  'carrier',
  'trackingCode',
  'trackingUrl',
  'reason',
] as const;
export type BodyPlaceholder = (typeof bodyPlaceholders)[number];

/** What a route's body must carry for the move to mean anything. */
const requiredPlaceholders: Readonly<Record<OrderAction, readonly BodyPlaceholder[][]>> = {
  ready: [['erpNumber']],
  invoice: [['invoiceKey', 'invoiceXml', 'invoiceXmlBase64']],
  ship: [['trackingCode']],
  cancel: [['reason']],
};

/** The sandbox's routes: b2bctl's defaults. */
export const defaultOrderRoutes: OrderRoutes = {
  ready: {
    method: 'PUT',
    path: '/v1/orders/{id}/status',
    body: { status: 'READY_TO_SHIP', erpOrderNumber: '{erpNumber}' },
  },
  invoice: {
    method: 'POST',
    path: '/v1/orders/{id}/invoice',
    body: { accessKey: '{invoiceKey}', xml: '{invoiceXml}' },
  },
  ship: {
    method: 'POST',
    path: '/v1/orders/{id}/tracking',
    body: { trackingCode: '{trackingCode}', carrier: '{carrier}', trackingUrl: '{trackingUrl}' },
  },
  cancel: {
    method: 'PUT',
    path: '/v1/orders/{id}/status',
    body: { status: 'CANCELED', cancellationReason: '{reason}' },
  },
  replace: {
    ready: { method: 'PUT', path: '/v1/orders/{id}/erp-number', body: { erpOrderNumber: '{erpNumber}' } },
    invoice: {
      method: 'PUT',
      path: '/v1/orders/{id}/invoice',
      body: { accessKey: '{invoiceKey}', xml: '{invoiceXml}' },
    },
    ship: {
      method: 'PUT',
      path: '/v1/orders/{id}/tracking',
      body: { trackingCode: '{trackingCode}', carrier: '{carrier}', trackingUrl: '{trackingUrl}' },
    },
  },
};

export class OrderRoutesError extends Error {}

/**
 * The replace routes `--replace` would need for moves of `actions` and `routes` lack, in the order of the actions (a
 * cancel has none to need: a canceled order holds nothing to correct). Refused at start: `--replace` without its
 * route was taken, every conflict then reported "not sent", after the orders were read (a user test).
 */
export function missingReplaceRoutes(routes: OrderRoutes, actions: Iterable<OrderAction>): ReplaceableAction[] {
  const needed = new Set([...actions].filter((action): action is ReplaceableAction => action in keptFieldOf));
  return orderActions.filter(
    (action): action is ReplaceableAction =>
      needed.has(action as ReplaceableAction) && !routes.replace?.[action as ReplaceableAction],
  );
}

const placeholderPattern = /^\{([A-Za-z][A-Za-z0-9]*)\}$/;

function isPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && placeholderPattern.test(value);
}

/**
 * Reads a routes file's JSON: each action given replaces the default's route; the rest keep the defaults. The
 * `replace` routes come from the file alone: correcting an order's data is a route the sandbox's guess does not make
 * a store's.
 */
export function parseOrderRoutes(json: unknown): OrderRoutes {
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new OrderRoutesError('the routes file is a JSON object keyed by action (ready, invoice, ship, cancel)');
  const routes: Record<string, unknown> = Object.fromEntries(
    orderActions.map((action) => [action, defaultOrderRoutes[action]]),
  );
  for (const [action, value] of Object.entries(json)) {
    if (action === 'replace') routes.replace = parseReplacements(value);
    else if (!(orderActions as readonly string[]).includes(action))
      throw new OrderRoutesError(
        `"${action}" is not an action; the actions are ${orderActions.join(', ')}, and replace`,
      );
    else routes[action] = parseRoute(action as OrderAction, value);
  }
  return routes as OrderRoutes;
}

function parseReplacements(value: unknown): Partial<Record<ReplaceableAction, OrderRoute>> {
  const actions = Object.keys(keptFieldOf);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new OrderRoutesError(`replace is an object keyed by action (${actions.join(', ')})`);
  const replacements: Partial<Record<ReplaceableAction, OrderRoute>> = {};
  for (const [action, route] of Object.entries(value)) {
    if (!actions.includes(action))
      throw new OrderRoutesError(
        `replace."${action}" is not an action whose data an order keeps (${actions.join(', ')})`,
      );
    replacements[action as ReplaceableAction] = parseRoute(action as OrderAction, route, `replace.${action}`);
  }
  return replacements;
}

function parseRoute(action: OrderAction, value: unknown, where: string = action): OrderRoute {
  const route = (value ?? {}) as Partial<OrderRoute>;
  const method = typeof route.method === 'string' ? route.method.toUpperCase() : undefined;
  if (method !== 'POST' && method !== 'PUT')
    throw new OrderRoutesError(`${where}.method is POST or PUT (every move writes)`);
  if (typeof route.path !== 'string' || !route.path.startsWith('/'))
    throw new OrderRoutesError(`${where}.path is a path starting with /, such as /v1/orders/{id}/status`);
  for (const name of route.path.match(/\{([^}]*)\}/g) ?? [])
    if (!(pathPlaceholders as readonly string[]).includes(name.slice(1, -1)))
      throw new OrderRoutesError(`${where}.path: ${name} is not one of {id}, {orderId}, {branch}`);
  if (!/\{(id|orderId)\}/.test(route.path))
    throw new OrderRoutesError(`${where}.path names no order: put {id} (or {orderId}) in it`);
  const used = new Set(placeholdersOf(route.body, where));
  for (const choices of requiredPlaceholders[action])
    if (!choices.some((name) => used.has(name)))
      throw new OrderRoutesError(`${where}.body does not carry ${choices.map((name) => `{${name}}`).join(' or ')}`);
  return { method, path: route.path, body: route.body };
}

/** The placeholders a body template uses, checked against the known ones. */
export function placeholdersOf(template: unknown, action = 'body'): BodyPlaceholder[] {
  const found: BodyPlaceholder[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const name = placeholderPattern.exec(value)?.[1];
      if (name === undefined) return;
      if (!(bodyPlaceholders as readonly string[]).includes(name))
        throw new OrderRoutesError(
          `${action}.body: {${name}} is not one of ${bodyPlaceholders.map((n) => `{${n}}`).join(', ')}`,
        );
      found.push(name as BodyPlaceholder);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(template);
  return found;
}

/** The path of a route for these values; each value is URI-encoded; a missing one is undefined. */
export function routePathFor(route: OrderRoute, values: Partial<Record<BodyPlaceholder, string>>): string | undefined {
  let missing = false;
  const path = route.path.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_whole, name: string) => {
    const value = values[name as BodyPlaceholder];
    if (value === undefined || value === '') missing = true;
    // `.` and `..` are refused with the row (moveFieldProblems); an id the detail gave is checked here too.
    if (value === '.' || value === '..') missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? undefined : path;
}

/** The body of a route for these values: placeholders replaced, fields of absent values dropped. */
export function renderBody(template: unknown, values: Partial<Record<BodyPlaceholder, string>>): unknown {
  if (typeof template === 'string') {
    const name = placeholderPattern.exec(template)?.[1];
    return name === undefined ? template : values[name as BodyPlaceholder];
  }
  if (Array.isArray(template))
    return template.map((item) => renderBody(item, values)).filter((item) => item !== undefined);
  if (template !== null && typeof template === 'object') {
    const body: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(template)) {
      const rendered = renderBody(value, values);
      if (rendered !== undefined) body[field] = rendered;
    }
    return body;
  }
  return template;
}

/**
 * The values a body carries where the template puts its placeholders, or undefined when a literal of the template
 * (`"status": "CANCELED"`) differs: the body is not this route's. The sandbox's reading of a request.
 */
export function readBody(template: unknown, body: unknown): Partial<Record<BodyPlaceholder, string>> | undefined {
  const values: Partial<Record<BodyPlaceholder, string>> = {};
  const visit = (expected: unknown, actual: unknown): boolean => {
    if (typeof expected === 'string') {
      const name = placeholderPattern.exec(expected)?.[1];
      if (name === undefined) return actual === expected;
      if (actual === undefined || actual === null) return true;
      values[name as BodyPlaceholder] = typeof actual === 'string' ? actual : JSON.stringify(actual);
      return true;
    }
    if (Array.isArray(expected)) {
      if (actual === undefined) return true;
      if (!Array.isArray(actual)) return false;
      // renderBody drops the items of absent values: the literals must be there, the rest fill the placeholders.
      const rest = actual.filter((item) => !expected.some((literal) => literal === item && !isPlaceholder(literal)));
      const holders = expected.filter(isPlaceholder);
      return (
        expected.every((item) => isPlaceholder(item) || actual.includes(item)) &&
        rest.length <= holders.length &&
        rest.every((item, index) => visit(holders[index], item))
      );
    }
    if (expected !== null && typeof expected === 'object') {
      if (actual === undefined) return true;
      if (actual === null || typeof actual !== 'object') return false;
      const object = actual as Record<string, unknown>;
      return Object.entries(expected).every(([field, value]) => visit(value, object[field]));
    }
    return JSON.stringify(expected) === JSON.stringify(actual);
  };
  return visit(template, body) ? values : undefined;
}
