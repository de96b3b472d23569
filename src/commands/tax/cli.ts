import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../base/errors.js';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import {
  inputFlags,
  type ParsedInputFlags,
  withConnectionOptions,
  withProxyHeaderOptions,
} from '../../command-kit/shared-flags.js';
import { type FederativeUnit, isFederativeUnit } from '../../domain/brazil-codes.js';
import type { TaxItem } from '../../domain/tax/terms.js';
import { buyerKinds, type BuyerKind } from '../../domain/tax/rules.js';
import type { TaxQuoteOptions } from './quote.js';
import type { TaxServeOptions } from './serve.js';
import { httpUrl, port, waitDuration, wholeNumber } from '../../command-kit/parse.js';
import { overrunLimitMs } from '../../tax/erp-forward.js';
import { checkTaxItem } from '../../tax/table-file.js';

/** What commander parses for `tax serve`: the verb's options, its reading flags loose, a switch absent unless given. */
type ServeFlags = ParsedInputFlags & Omit<TaxServeOptions, 'input' | 'allowHttp'> & { allowHttp?: true };

interface QuoteFlags extends ParsedInputFlags {
  rules: string;
  from: FederativeUnit;
  to: FederativeUnit;
  buyer: BuyerKind;
  item: TaxItem[];
  items?: string;
}

/**
 * `--budget`: counted in milliseconds (300 by default), so a bare `300` is as likely 300 ms as 300 s, and is refused;
 * the ERP's request is closed at 10 s, so no longer budget can be kept.
 */
const budget = waitDuration({
  maxMs: overrunLimitMs,
  shown: '10s',
  examples: '300ms or 2s',
  why: "the ERP's request is closed then",
});

/** A state (UF), in any case. */
function federativeUnit(value: string): FederativeUnit {
  const unit = value.trim().toUpperCase();
  if (!isFederativeUnit(unit)) throw new InvalidArgumentError('expected a state (UF) such as SP or RJ.');
  return unit;
}

/** `--item NCM,QUANTITY,UNIT_PRICE[,DISCOUNT[,FREIGHT]]`, repeatable. */
function item(value: string, previous: TaxItem[] = []): TaxItem[] {
  const parts = value.split(',').map((part) => part.trim());
  const [ncm, quantity, unitPrice, discount, freight, ...rest] = parts;
  const checked =
    rest.length > 0
      ? 'too many parts'
      : (decimalCommaAmbiguity(parts) ??
        groupedAmount({ quantity, unitPrice, discount, freight }) ??
        checkTaxItem({ ncm, quantity, unitPrice, discount, freight }));
  if (typeof checked === 'string')
    throw new InvalidArgumentError(
      `${checked}; write NCM,QUANTITY,UNIT_PRICE[,DISCOUNT[,FREIGHT]], such as 39269090,10,45.90.`,
    );
  return [...previous, checked];
}

/**
 * Why `1.500` cannot be read as an amount here: a point and three digits is one and a half to the format and one
 * thousand five hundred to a Brazilian hand (`1.500,00` splits into `1.500` and a discount of `00`). Said, not
 * guessed, for the quantity, discount and freight as for the price: an --items file refuses any of them so too.
 */
function groupedAmount(amounts: Record<string, string | undefined>): string | undefined {
  for (const [field, amount] of Object.entries(amounts)) {
    // A group never starts with 0: `0.125` (a screw at R$ 0,125) is a decimal only.
    if (amount === undefined || !/^[1-9]\d{0,2}(\.\d{3})+$/.test(amount)) continue;
    const whole = amount.replaceAll('.', '');
    // Two points or more (`1.000.000`) make no decimal: the thousands are the only reading.
    if (amount.indexOf('.') !== amount.lastIndexOf('.'))
      return `${field} "${amount}" is ${whole} with its thousands grouped: write ${whole} (or ${whole}.00)`;
    // The decimal written so that it is no grouping: `1.2340`, not the `1.234` refused.
    return `${field} "${amount}" reads as ${Number(amount)}, with a decimal point, though it looks like ${whole} with its thousands grouped: write ${whole} (or ${whole}.00) for that, or ${amount}0 for the decimal`;
  }
  return undefined;
}

/**
 * Why a whole unit price followed by a discount of one or two digits cannot be read: `45,90` is R$ 45,90 to a
 * Brazilian hand and a price of 45 with a discount of 90 to the format, and either reading is a plausible cart.
 * Said, not guessed. A discount of 0 is left alone (`3500,0,25`): no discount and a freight share is the common
 * cart, and `3500,0` is the same price either way.
 */
function decimalCommaAmbiguity(parts: readonly string[]): string | undefined {
  const [ncm = '', quantity = '', price = '', discount = '', ...rest] = parts;
  if (!/^\d+$/.test(price) || !/^\d{1,2}$/.test(discount) || /^0+$/.test(discount)) return undefined;
  const asDecimal = [ncm, quantity, `${price}.${discount}`, ...rest].join(',');
  return `"${price},${discount}" reads as a unit price of ${price} and a discount of ${discount}: for ${price}.${discount} write a decimal point (${asDecimal}); for those two, write the price as ${price}.00`;
}

/** `b2bctl tax quote|serve`. */
export function register(program: Command, dispatch: Dispatch): void {
  const tax = program
    .command('tax')
    .summary('taxes per item from the ERP’s tax table (the tax calculation callback)')
    .description(
      "The taxes of each item of a cart (ICMS, ICMS-ST, IPI, DIFAL and FCP), computed from the ERP's own tax table: one row per NCM prefix, origin and destination state and kind of buyer, as CSV, JSON or a workbook. tax quote computes a cart offline to check a table; tax serve answers the platform's tax calculation callback with it (docs/tax.md).",
    );
  inputFlags
    .addTo(
      tax
        .command('quote')
        .summary('compute the taxes of a cart offline from a tax table, as the callback would answer them')
        .description(
          "Reads a tax table and a cart (--item, repeatable, or an --items file) and prints each item's taxes exactly as tax serve would answer the callback for it: a table on a terminal, JSON when piped. A wrong row of the table, a wrong item, or an item whose NCM, states and buyer have no row stops it with file:line and the column (exit 65); a tax of zero is never made up. It sends nothing and needs no login: use it to check a table before serving it.",
        )
        .requiredOption(
          '--rules <file>',
          'the tax table: CSV, JSON, .xlsx or .ods, one row per NCM prefix, states and buyer',
        )
        .requiredOption('--from <uf>', 'the origin state', federativeUnit)
        .requiredOption('--to <uf>', 'the destination state', federativeUnit)
        .addOption(
          new Option('--buyer <kind>', 'who buys: an ICMS taxpayer or a non-taxpayer final consumer')
            .choices(buyerKinds)
            .makeOptionMandatory(),
        )
        .option('--item <ncm,qty,price[,discount[,freight]]>', 'an item of the cart (repeatable)', item)
        .option('--items <file>', 'the cart as a file: ncm, quantity, unitPrice, discount, freight (and sku) columns'),
    )
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<QuoteFlags>();
      if (flags.item === undefined && flags.items === undefined)
        throw new UsageError('give the cart: --item NCM,QUANTITY,UNIT_PRICE (repeatable) or --items FILE.');
      return dispatch<TaxQuoteOptions>(command, async () => (await import('./quote.js')).run, {
        rules: flags.rules,
        from: flags.from,
        to: flags.to,
        buyer: flags.buyer,
        items: flags.item ?? [],
        itemsFile: flags.items,
        input: inputFlags.read(flags),
      });
    });
  inputFlags
    .addTo(
      withProxyHeaderOptions(
        withConnectionOptions(
          tax
            .command('serve')
            .summary('answer the platform’s tax callback from the tax table, read again whenever the file changes')
            .description(
              "Runs the server that answers the platform's tax calculation callback: each cart posted to --path is answered with its items' taxes from the tax table, or first from the ERP's own endpoint (--forward-to) within --budget, the table answering when the ERP is late. Requests are authenticated by a token or user and password from the environment (--auth), compared in constant time. The table is read again when its file changes; a new table with a wrong row is refused and the old one stays in use, and a table wrong at start stops it (exit 65). It runs until Ctrl-C, SIGTERM or SIGHUP, then answers the carts in flight and exits 0.",
            )
            .option(
              '--rules <file>',
              'the tax table: CSV, JSON, .xlsx or .ods, one row per NCM prefix, states and buyer',
            )
            .option(
              '--forward-to <url>',
              'ask the ERP’s own tax endpoint first (credential: env B2BCTL_TAX_FORWARD_TOKEN or _BASIC); --rules is then the fallback',
              httpUrl,
            )
            .addOption(
              new Option(
                '--budget <time>',
                'how long the ERP may take before the table (or a 503) answers, such as 300ms or 2s, at most 10s',
              )
                .argParser(budget)
                .default(300, '300ms'),
            )
            .option(
              '--shape <file>',
              'where the request carries items, states and buyer, and the answer’s names (JSON; default: the sandbox’s)',
            )
            .option('--host <address>', 'address to listen on', '127.0.0.1')
            .option('--port <port>', 'port to listen on (0 for a free one)', port, 8790)
            .option('--path <route>', 'the callback’s route', '/tax')
            .addOption(
              new Option(
                '--auth <kind>',
                'token (a token endpoint, as the webhook receiver’s), bearer (B2BCTL_TAX_TOKEN), basic (B2BCTL_TAX_USER, B2BCTL_TAX_PASSWORD) or none (127.0.0.1 only)',
              )
                .choices(['token', 'bearer', 'basic', 'none'])
                .makeOptionMandatory(),
            )
            .option(
              '--client-id <id>',
              'with --auth token: the client id the platform asks tokens with (or tax.clientId)',
            )
            .option(
              '--client-secret-file <file>',
              'with --auth token: file holding the client secret (or env B2BCTL_TAX_CLIENT_SECRET; never on the command line)',
            )
            .option('--token-path <route>', 'with --auth token: the token endpoint’s route', '/oauth/token')
            .option('--token-ttl <seconds>', 'with --auth token: lifetime of issued tokens', wholeNumber(1), 3600),
          // A cart is a few kilobytes, and the platform's checkout waits for its taxes: seconds, not node's minutes.
          cartRequestTimeoutMs,
        ),
      ).option('--allow-http', 'let the ERP token of --forward-to travel over plain http:// to another machine'),
    )
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<ServeFlags>();
      if (!flags.path.startsWith('/')) throw new UsageError('--path must start with /, such as /tax.');
      if (!flags.tokenPath.startsWith('/'))
        throw new UsageError('--token-path must start with /, such as /oauth/token.');
      if (flags.tokenPath === flags.path)
        throw new UsageError('--token-path and --path must differ: one route asks tokens, the other taxes.');
      if (flags.rules === undefined && flags.forwardTo === undefined)
        throw new UsageError('give the tax table (--rules FILE), the ERP (--forward-to URL), or both.');
      return dispatch<TaxServeOptions>(command, async () => (await import('./serve.js')).run, {
        rules: flags.rules,
        forwardTo: flags.forwardTo,
        budget: flags.budget,
        shape: flags.shape,
        host: flags.host,
        port: flags.port,
        path: flags.path,
        auth: flags.auth,
        clientId: flags.clientId,
        clientSecretFile: flags.clientSecretFile,
        tokenPath: flags.tokenPath,
        tokenTtl: flags.tokenTtl,
        trustProxy: flags.trustProxy,
        proxyHeader: flags.proxyHeader,
        requestTimeout: flags.requestTimeout,
        maxConnections: flags.maxConnections,
        maxConnectionsPerAddress: flags.maxConnectionsPerAddress,
        allowHttp: flags.allowHttp === true,
        input: inputFlags.read(flags),
      });
    });
}

/** The time a client of `tax serve` has to send a whole cart, by default. */
const cartRequestTimeoutMs = 5000;

export const examples: CommandExamples = {
  tax: [
    'b2bctl tax quote --rules impostos.csv --map impostos.map.json --from SP --to RJ --buyer taxpayer --item 39269090,10,45.90',
  ],
  'tax serve': [
    'b2bctl tax serve --forward-to http://erp.internal:8080/impostos --budget 300ms --rules impostos.csv --map impostos.map.json --auth bearer',
    'B2BCTL_TAX_CLIENT_SECRET=... b2bctl tax serve --rules /srv/erp/impostos.csv --map /srv/erp/impostos.map.json --auth token --client-id plataforma',
    'B2BCTL_TAX_TOKEN=... b2bctl tax serve --rules /srv/erp/impostos.csv --map /srv/erp/impostos.map.json --auth bearer --port 8790',
    'b2bctl tax serve --rules impostos.csv --map impostos.map.json --auth none --port 0',
  ],
  'tax quote': [
    'b2bctl tax quote --rules impostos.csv --map impostos.map.json --from SP --to RJ --buyer taxpayer --item 39269090,10,45.90',
    // The cart shipped in samples/ (worked example 3 of docs/tax.md), so that this example runs as written.
    'b2bctl tax quote --rules samples/impostos.csv --map samples/impostos.map.json --from SP --to MG --buyer non-taxpayer --items samples/carrinho.csv -o json',
  ],
};
