/**
 * Catalog fulfillment discovery (spec part 1 §2.8, §4.5 item 6), for callers with the fulfillment
 * extension active: per variant and method, can it reach one destination, with representative
 * options. The destination is `filters.fulfills_to` (its pickup location winning over an address
 * given beside it) or else the buyer's `context` (a non-binding hint). `fulfills_to` or
 * `filters.methods` also filter: a variant stays when a wanted method is available there; a
 * digital variant needs no method, so it stays unless methods are named.
 */
import type {
  CatalogVariant,
  DiscoveryDestination,
  FulfillmentDiscoveryQuery,
  FulfillmentMethodType,
  PickupLocation,
  VariantFulfillment,
} from '../../../adapters/contract.js';
import type { CatalogFulfillment, FulfillsTo } from '../../../schemas/catalog.js';
import type { Context, Message } from '../../../schemas/common.js';
import { ProtocolError } from '../../protocol/errors.js';
import { warningMessage } from '../../protocol/messages.js';
import { formatAmount } from '../../../adapters/kit/money.js';
import { regionCode, toAlpha2 } from '../../protocol/country-code.js';

export interface DiscoveryPlan {
  destination: DiscoveryDestination;
  /** Method types wanted (`filters.methods`); absent = every method. */
  methods?: string[];
  /** `fulfills_to` or `methods` was given: variants that cannot be fulfilled are left out. */
  filtering: boolean;
}

export interface DiscoveryRequest {
  /** The store answers discovery (`capabilities.fulfillmentDiscovery`). */
  supported: boolean;
  fulfillsTo?: FulfillsTo;
  methods?: string[];
  context?: Context;
  locations(): Promise<PickupLocation[]>;
}

type Ask = (query: FulfillmentDiscoveryQuery) => Promise<VariantFulfillment[]>;

const METHOD_TYPES: readonly FulfillmentMethodType[] = ['shipping', 'pickup'];
const isMethodType = (type: string): type is FulfillmentMethodType => (METHOD_TYPES as readonly string[]).includes(type);

function area(
  country: string | undefined,
  region: string | undefined,
  postalCode: string | undefined,
  strict: boolean,
): DiscoveryDestination['address'] {
  const alpha2 = country === undefined ? undefined : toAlpha2(country);
  if (country !== undefined && alpha2 === undefined && strict) {
    throw new ProtocolError(
      'invalid_request',
      `$.filters.fulfills_to.address_country ${JSON.stringify(country)} is not a country: send an ISO 3166-1 alpha-2 code such as "US"`,
    );
  }
  const address = {
    ...(alpha2 && { country: alpha2 }),
    ...(region && { region: regionCode(region, alpha2) }),
    ...(postalCode && { postalCode: postalCode.trim() }),
  };
  return Object.keys(address).length > 0 ? address : undefined;
}

async function destinationOf(request: DiscoveryRequest): Promise<DiscoveryDestination> {
  const to = request.fulfillsTo;
  if (to?.location !== undefined) {
    const locations = await request.locations();
    if (!locations.some((l) => l.id === to.location)) {
      const known = locations.map((l) => l.id).join(', ') || 'none';
      throw new ProtocolError(
        'invalid_request',
        `$.filters.fulfills_to.location ${JSON.stringify(to.location)} is not a pickup location of this store (known: ${known})`,
      );
    }
    return { locationId: to.location };
  }
  // fulfills_to supersedes context; an unreadable context country is only a hint, so it is dropped.
  const address = to
    ? area(to.address_country, to.address_region, to.postal_code, true)
    : area(request.context?.address_country, request.context?.address_region, request.context?.postal_code, false);
  return address ? { address } : {};
}

/** What to ask the store for this request; no plan when the store cannot answer. */
export async function planDiscovery(request: DiscoveryRequest): Promise<{ plan?: DiscoveryPlan; messages: Message[] }> {
  const filtering = request.fulfillsTo !== undefined || request.methods !== undefined;
  if (!request.supported) {
    const why = 'this store cannot tell fulfillment per product, so filters.fulfills_to and filters.methods were not applied';
    return { messages: filtering ? [warningMessage('filter_ignored', why, '$.filters')] : [] };
  }
  const plan = { destination: await destinationOf(request), ...(request.methods && { methods: request.methods }), filtering };
  return { plan, messages: [] };
}

/** The store's answers for these variants, by variant id. */
export async function discover(
  plan: DiscoveryPlan,
  variants: readonly CatalogVariant[],
  ask: Ask,
): Promise<Map<string, VariantFulfillment>> {
  const ids = [...new Set(variants.map((v) => v.id))];
  const known = plan.methods?.filter(isMethodType);
  // Only method types the store has no notion of were asked for: no variant offers them.
  if (ids.length === 0 || known?.length === 0) return new Map(ids.map((variantId) => [variantId, { variantId, methods: [] }]));
  const answers = await ask({ variantIds: ids, destination: plan.destination, ...(known && { methods: known }) });
  return new Map(answers.map((a) => [a.variantId, a]));
}

/** The variant passes the plan's fulfillment filter. */
export function fulfills(variant: CatalogVariant, answer: VariantFulfillment | undefined, plan: DiscoveryPlan): boolean {
  if (!plan.filtering) return true;
  if (!variant.requiresShipping) return plan.methods === undefined;
  return answer?.methods.some((m) => m.available && (plan.methods === undefined || plan.methods.includes(m.type))) ?? false;
}

const money = (amount: number, currency: string) => (amount === 0 ? 'Free' : formatAmount(amount, currency));

/**
 * The protocol shape. Catalog options carry no amount field, so the price leads the option's
 * description ("$5.00 · Delivered by USPS in 3-5 days"); checkout quotes the exact total.
 */
export function toCatalogFulfillment(answer: VariantFulfillment, currency: string): CatalogFulfillment {
  return {
    methods: answer.methods.map((m) => ({
      type: m.type,
      ...(m.description && { description: { plain: m.description } }),
      availability: { available: m.available, status: m.status },
      ...(m.locationId && { location: m.locationId }),
      ...(m.options.length > 0 && {
        options: m.options.map((o) => ({
          id: o.id,
          title: o.title,
          description: { plain: o.description ? `${money(o.amount, currency)} · ${o.description}` : money(o.amount, currency) },
        })),
      }),
    })),
  };
}
