/**
 * A catalog request's `filters`, read once into what each layer applies: categories, price
 * (in a store currency) and the store's declared custom filters go to the adapter's search;
 * price and the registered extensions' filters (fulfillment) also screen variants in the gateway
 * (lookups, get_product, search pages). A filter the store does not declare, or an extension's
 * filter without that extension negotiated, is a 400: silently ignoring it would return what the
 * caller ruled out.
 */
import type { CustomFilter } from '../../../adapters/contract.js';
import type { CatalogFilters } from '../../../schemas/catalog.js';
import type { Context, Message } from '../../../schemas/common.js';
import type { CatalogPart } from '../../extensions/extension.js';
import { extensionFilterNames, readCatalog } from '../../extensions/steps.js';
import type { OperationContext } from '../context.js';
import { ProtocolError } from '../../protocol/errors.js';
import { warningMessage } from '../../protocol/messages.js';
import { compile, toJsonPath, type Validator } from '../../../schemas/validator.js';
import { chooseCurrency } from '../pricing/currency.js';
import type { CatalogReader } from './catalog-cache.js';
import { priceBounds, type PriceBounds } from './price-filter.js';

export interface CatalogFilterSet {
  categories?: string[];
  price?: PriceBounds;
  /** Declared custom filters (applied by search only). */
  custom?: Record<string, unknown>;
  /** The parts of the extensions active for the caller (fulfillment discovery, when the store supports it). */
  extensions: CatalogPart[];
  messages: Message[];
  /** The request named at least one filter (a recognized search input). */
  given: boolean;
}

/** Where the filters are read: search passes custom filters to the store; lookups cannot apply them. */
export type FilterScope = 'search' | 'lookup';

const validators = new WeakMap<CustomFilter, Validator<unknown>>();

function checkCustom(filter: CustomFilter, value: unknown): void {
  let validate = validators.get(filter);
  if (!validate) {
    validate = compile(filter.schema);
    validators.set(filter, validate);
  }
  const result = validate(value);
  if (!result.ok) throw new ProtocolError('invalid_request', `${toJsonPath(`/filters/${filter.name}`)}${result.message.slice(1)}`);
}

export async function readFilters(
  ctx: OperationContext,
  reader: CatalogReader,
  request: { filters?: CatalogFilters; context?: Context },
  scope: FilterScope,
): Promise<CatalogFilterSet> {
  const { categories, price, ...rest } = (request.filters ?? {}) as CatalogFilters & Record<string, unknown>;
  const others = Object.entries(rest).filter(([name]) => !extensionFilterNames.has(name));
  const { capabilities } = ctx.tenant.adapter;
  const messages: Message[] = [];

  const custom: Record<string, unknown> = {};
  for (const [name, value] of others) {
    const filter = capabilities.customFilters.find((f) => f.name === name);
    if (!filter) {
      const supported = ['categories', 'price', ...capabilities.customFilters.map((f) => f.name)];
      throw new ProtocolError(
        'invalid_request',
        `${toJsonPath(`/filters/${name}`)} is not a filter of this store (it supports ${supported.join(', ')})`,
      );
    }
    checkCustom(filter, value);
    if (scope === 'search') custom[name] = value;
    else
      messages.push(
        warningMessage(
          'filter_ignored',
          `filters.${name} only narrows search_catalog; it was not applied here`,
          toJsonPath(`/filters/${name}`),
        ),
      );
  }

  let bounds: PriceBounds | undefined;
  if (price) {
    if (price.min !== undefined && price.max !== undefined && price.min > price.max) {
      throw new ProtocolError('invalid_request', '$.filters.price.min must not be greater than $.filters.price.max');
    }
    const converted = priceBounds(price, request.context?.currency, capabilities.currencies, ctx.tenant.policies.exchangeRates);
    bounds = converted.bounds;
    if (converted.message) messages.push(converted.message);
  }
  // Prices stay in the store's currency; unless the price filter's message already said so, the caller hears it.
  const { notice } = chooseCurrency(request.context?.currency, capabilities.currencies);
  if (notice && !messages.some((m) => m.path === '$.filters.price')) messages.push(notice);

  const extensions = await readCatalog(ctx, request.filters ?? {}, request.context, reader);
  messages.push(...extensions.messages);

  return {
    ...(categories && { categories }),
    ...(bounds && { price: bounds }),
    ...(Object.keys(custom).length > 0 && { custom }),
    extensions: extensions.parts,
    messages,
    given: Boolean(categories || price || Object.keys(rest).length > 0),
  };
}
