/**
 * The registered extensions' steps as catalog, cart and checkout run them: every extension of the
 * resource reads its request members and takes its part in pricing (told whether the caller
 * negotiated it); only active ones settle, render and say what is missing. In the catalog only
 * active ones take part, and a filter of an inactive one is refused. Parts are merged in table order.
 */
import type { PickupLocation, Quote } from '../../adapters/contract.js';
import type { Cart, CartCreateRequest, CartUpdateRequest } from '../../schemas/cart.js';
import type { CatalogFilters } from '../../schemas/catalog.js';
import type { Checkout, CheckoutCreateRequest, CheckoutUpdateRequest } from '../../schemas/checkout.js';
import type { Context, Message } from '../../schemas/common.js';
import { ProtocolError } from '../protocol/errors.js';
import { firstPath, type AllocationPath } from './allocation-path.js';
import type {
  CartExtensionState,
  CartSteps,
  CatalogPart,
  CatalogSource,
  CatalogSteps,
  CheckoutAsks,
  CheckoutExtensionState,
  CheckoutSteps,
  Extension,
  ExtensionContext,
  Priced,
  QuoteAdditions,
  SessionBasics,
} from './extension.js';
import { extensions } from './table.js';

interface Registered<Steps> {
  capability: Extension['capability'];
  steps: Steps;
}

const catalogSteps: Array<Registered<CatalogSteps>> = extensions.flatMap((e) =>
  e.catalog ? [{ capability: e.capability, steps: e.catalog }] : [],
);
const cartSteps: Array<Registered<CartSteps>> = extensions.flatMap((e) => (e.cart ? [{ capability: e.capability, steps: e.cart }] : []));
const checkoutSteps: Array<Registered<CheckoutSteps>> = extensions.flatMap((e) =>
  e.checkout ? [{ capability: e.capability, steps: e.checkout }] : [],
);

const isActive = (ctx: ExtensionContext, capability: Extension['capability']) => ctx.caller.active.has(capability);

/**
 * The steps of the extensions active for the caller. A request asks for them several times, and a
 * caller's active set is negotiated once per profile (protocol/negotiated.ts): the lists are kept
 * per set instead of being filtered afresh on every call.
 */
type ActiveSet = ExtensionContext['caller']['active'];
function activeOf<Steps>(registered: ReadonlyArray<Registered<Steps>>): (ctx: ExtensionContext) => readonly Steps[] {
  const lists = new WeakMap<ActiveSet, readonly Steps[]>();
  return (ctx) => {
    let list = lists.get(ctx.caller.active);
    if (!list) lists.set(ctx.caller.active, (list = registered.filter((e) => isActive(ctx, e.capability)).map((e) => e.steps)));
    return list;
  };
}
const activeCheckout = activeOf(checkoutSteps);
const activeCart = activeOf(cartSteps);

/** Each extension returns its own member of the state, so together they make the whole. */
const merged = <S>(parts: ReadonlyArray<Partial<S>>): S => Object.assign({}, ...parts) as S;

export interface ExtensionsPriced {
  quote: QuoteAdditions;
  notices: Message[];
}

function mergePriced(parts: readonly Priced[]): ExtensionsPriced {
  return { quote: merged<QuoteAdditions>(parts.map((p) => p.quote ?? {})), notices: parts.flatMap((p) => p.notices ?? []) };
}

// Catalog

/** The members of a catalog request's `filters` that registered extensions own (not the store's custom filters). */
export const extensionFilterNames: ReadonlySet<string> = new Set(catalogSteps.flatMap((e) => e.steps.filters));

export interface CatalogReading {
  parts: CatalogPart[];
  messages: Message[];
}

/**
 * The active extensions' parts in a catalog request. A filter of an extension the caller did not
 * negotiate is a 400: silently ignoring it would return what the caller ruled out.
 */
export async function readCatalog(
  ctx: ExtensionContext,
  filters: CatalogFilters,
  context: Context | undefined,
  source: CatalogSource,
): Promise<CatalogReading> {
  const reading: CatalogReading = { parts: [], messages: [] };
  for (const e of catalogSteps) {
    if (isActive(ctx, e.capability)) {
      const read = await e.steps.read({ ctx, filters, ...(context && { context }), source });
      if (read.part) reading.parts.push(read.part);
      reading.messages.push(...read.messages);
      continue;
    }
    const field = e.steps.filters.find((name) => (filters as Record<string, unknown>)[name] !== undefined);
    if (field === undefined) continue;
    const name = e.capability.slice(e.capability.lastIndexOf('.') + 1);
    const why = ctx.tenant.capabilities.has(e.capability)
      ? `which is not active for your profile: declare it there to filter by ${name}`
      : 'which this store does not offer';
    throw new ProtocolError('invalid_request', `$.filters.${field} belongs to the ${name} extension (${e.capability}), ${why}`);
  }
  return reading;
}

// Cart

export function readCart(
  ctx: ExtensionContext,
  request: CartCreateRequest | CartUpdateRequest,
  stored?: CartExtensionState,
): CartExtensionState {
  return merged(cartSteps.map((e) => e.steps.read({ active: isActive(ctx, e.capability), request, ...(stored && { stored }) })));
}

export function priceCart(ctx: ExtensionContext, session: SessionBasics & CartExtensionState): ExtensionsPriced {
  return mergePriced(cartSteps.map((e) => e.steps.price?.({ ctx, active: isActive(ctx, e.capability), session }) ?? {}));
}

export interface RenderedMembers<Body> {
  members: Partial<Body>;
  messages: Message[];
}

export function renderCart(
  ctx: ExtensionContext,
  state: CartExtensionState,
  quote: Quote,
  linePath: AllocationPath,
): RenderedMembers<Omit<Cart, 'proto'>> {
  const rendered = activeCart(ctx).map((steps) => steps.render?.({ ctx, state, quote, pathOf: linePath }) ?? {});
  return { members: merged(rendered.map((r) => r.members ?? {})), messages: rendered.flatMap((r) => r.messages ?? []) };
}

// Checkout

export interface CheckoutReading {
  state: CheckoutExtensionState;
  asks: Partial<CheckoutAsks>;
  messages: Message[];
}

export async function readCheckout(
  ctx: ExtensionContext,
  request: CheckoutCreateRequest | CheckoutUpdateRequest,
  stored: CheckoutExtensionState | undefined,
  carried: CartExtensionState | undefined,
  locations: () => Promise<PickupLocation[]>,
): Promise<CheckoutReading> {
  const reads = [];
  for (const e of checkoutSteps) {
    reads.push(
      await e.steps.read({
        active: isActive(ctx, e.capability),
        request,
        ...(stored && { stored }),
        ...(carried && { carried }),
        locations,
      }),
    );
  }
  return {
    state: merged(reads.map((r) => r.state)),
    asks: merged(reads.map((r) => r.asks ?? {})),
    messages: reads.flatMap((r) => r.messages ?? []),
  };
}

export function priceCheckout(ctx: ExtensionContext, session: SessionBasics & CheckoutExtensionState): ExtensionsPriced {
  return mergePriced(checkoutSteps.map((e) => e.steps.price?.({ ctx, active: isActive(ctx, e.capability), session }) ?? {}));
}

/** The state with what was asked for set where `quote` allows it; null when nothing changed (no second quote needed). */
export function settleCheckout(
  ctx: ExtensionContext,
  state: CheckoutExtensionState,
  asks: Partial<CheckoutAsks>,
  quote: Quote,
): Partial<CheckoutExtensionState> | null {
  const changes = activeCheckout(ctx).flatMap((steps) => steps.settle?.({ state, asks, quote }) ?? []);
  return changes.length > 0 ? merged(changes) : null;
}

export const untakenAsks = (ctx: ExtensionContext, asks: Partial<CheckoutAsks>, quote: Quote): Message[] =>
  activeCheckout(ctx).flatMap((steps) => steps.untaken?.({ asks, quote }) ?? []);

export const checkoutNeedsLocations = (ctx: ExtensionContext, state: CheckoutExtensionState): boolean =>
  activeCheckout(ctx).some((steps) => steps.needsLocations?.(state) ?? false);

export function renderCheckout(
  ctx: ExtensionContext,
  state: CheckoutExtensionState,
  quote: Quote,
  linePath: AllocationPath,
  locations: readonly PickupLocation[],
): RenderedMembers<Omit<Checkout, 'proto'>> {
  const active = activeCheckout(ctx);
  const pathOf = firstPath([linePath, ...active.flatMap((steps) => steps.allocationPath?.({ state, quote }) ?? [])]);
  const rendered = active.map((steps) => steps.render?.({ ctx, state, quote, pathOf, locations }) ?? {});
  return { members: merged(rendered.map((r) => r.members ?? {})), messages: rendered.flatMap((r) => r.messages ?? []) };
}

/** What the status machine asks of the active extensions (see capabilities/checkout/status.ts). */
export interface CompletionRules {
  gaps(state: CheckoutExtensionState, quote: Quote): Message[];
  /** Some active extension lets the platform choose how physical lines are delivered. */
  delivers: boolean;
}

export function completionRules(ctx: ExtensionContext): CompletionRules {
  return rulesOf(activeCheckout(ctx));
}

export function rulesOf(active: readonly CheckoutSteps[]): CompletionRules {
  return {
    gaps: (state, quote) => active.flatMap((steps) => steps.gaps?.(state, quote) ?? []),
    delivers: active.some((steps) => steps.delivers === true),
  };
}
