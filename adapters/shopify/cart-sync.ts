/**
 * Keeps one Shopify cart per gateway cart or checkout session, at exactly the state the last
 * quote request asked for. The backend handle (kept by the gateway with the session) carries the
 * cart id and what the adapter last sent, so a quote is one Storefront call: a read when nothing
 * changed, else one CartSync mutation document whose steps run only where something differs
 * (lines by the cart line ids in the handle, codes, buyer, delivery address, selected options).
 * A cart Shopify no longer knows is replaced by a new one (a new handle).
 */
import { createHash } from 'node:crypto';
import type { PostalAddress, QuoteRequest } from '../contract.js';
import { toShopifyAddress } from './addresses.js';
import type { SfCart, SfCartPayload, SfUserError } from './cart-types.js';
import { isGid, LINE_ATTRIBUTE, REFERENCE_ATTRIBUTE } from './ids.js';
import type { TaxResult } from './tax.js';

/** One gateway line as Shopify's cart last had it; `problem` when Shopify did not take it. */
export interface SentLine {
  /** Cart line id (absent when the line is not in the cart). */
  cartLine?: string;
  variantId: string;
  /** The cart's own quantity (not the one asked for): a stock cap or a replayed add shows here. */
  quantity: number;
  problem?: 'not_found' | 'out_of_stock';
}

export interface CartHandle {
  cart: string;
  lines: Record<string, SentLine>;
  codes: string[];
  buyer: string;
  address: string;
  /** Selected option handle per group key. */
  options: Record<string, string>;
  /** Delivery group id per group key, from the last answer. */
  groups: Record<string, string>;
  /** Shopify's tax for the cart as it was (tax.ts). */
  tax?: TaxResult;
  /** The cart's `checkoutUrl` and reference attribute: `checkoutUrl` answers from them without a call. */
  url?: string;
  reference?: string;
}

export function readHandle(handle: string | undefined): CartHandle | undefined {
  if (!handle) return undefined;
  try {
    const value = JSON.parse(handle) as CartHandle;
    return typeof value.cart === 'string' && value.lines && typeof value.lines === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

export const writeHandle = (handle: CartHandle) => JSON.stringify(handle);

export interface WantedCart {
  buyer: {
    email?: string;
    countryCode: string;
    /** The pickup location chosen, so Shopify's checkout opens on local pickup there. */
    preferences?: { delivery: { deliveryMethod: ['PICK_UP']; pickupHandle: [string] } };
  };
  /** Lines that can go to Shopify (quantity at least 1, a variant id). */
  lines: Array<{ lineId: string; variantId: string; quantity: number }>;
  codes: string[];
  address?: PostalAddress;
  /** Wanted option handle per group key. */
  options: Record<string, string>;
  /** The gateway's reference, kept as a cart attribute from creation on (`QuoteRequest.reference`). */
  reference?: string;
}

/** The delivery address of the first shipping method with one. */
function shippingAddress(request: QuoteRequest): PostalAddress | undefined {
  for (const method of request.fulfillment?.methods ?? []) {
    if (method.type === 'shipping' && method.destination && 'address' in method.destination) return method.destination.address;
  }
  return undefined;
}

/** The location of the first pickup method with one. */
function pickupLocation(request: QuoteRequest): string | undefined {
  for (const method of request.fulfillment?.methods ?? []) {
    if (method.type === 'pickup' && method.destination && 'locationId' in method.destination) return method.destination.locationId;
  }
  return undefined;
}

export function wantedCart(request: QuoteRequest, countryCode: string): WantedCart {
  const address = shippingAddress(request);
  const pickupAt = pickupLocation(request);
  const options = Object.assign(
    {},
    ...(request.fulfillment?.methods ?? []).filter((m) => m.type === 'shipping').map((m) => m.selectedOptions ?? {}),
  ) as Record<string, string>;
  return {
    buyer: {
      ...(request.buyer?.email && { email: request.buyer.email }),
      countryCode,
      ...(pickupAt && { preferences: { delivery: { deliveryMethod: ['PICK_UP'], pickupHandle: [pickupAt] } } }),
    },
    lines: request.lines.filter((l) => Number.isSafeInteger(l.quantity) && l.quantity >= 1 && isGid('ProductVariant', l.variantId)),
    codes: [...request.discountCodes],
    ...(address && { address }),
    options,
    ...(request.reference && { reference: request.reference }),
  };
}

const fingerprint = (value: unknown) =>
  value === undefined ? '' : createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 16);

export const lineInput = (l: WantedCart['lines'][number]) => ({
  merchandiseId: l.variantId,
  quantity: l.quantity,
  attributes: [{ key: LINE_ATTRIBUTE, value: l.lineId }],
});

const addressesInput = (address: PostalAddress | undefined) =>
  address ? [{ address: { deliveryAddress: toShopifyAddress(address) }, selected: true }] : [];

/**
 * The CartCreate input for a new cart in the wanted state (options are selected afterwards), with
 * the reference attribute in the same call (CartInput.attributes), so no cartAttributesUpdate follows.
 */
export function createInput(wanted: WantedCart) {
  return {
    lines: wanted.lines.map(lineInput),
    discountCodes: wanted.codes,
    buyerIdentity: wanted.buyer,
    ...(wanted.reference && { attributes: [{ key: REFERENCE_ATTRIBUTE, value: wanted.reference }] }),
    ...(wanted.address && { delivery: { addresses: addressesInput(wanted.address) } }),
  };
}

/** CartSync variables taking the cart from `handle` to `wanted`; `changed` false when there is nothing to do. */
export function syncVariables(handle: CartHandle, wanted: WantedCart) {
  const remove: string[] = [];
  const update: Array<{ id: string; quantity: number }> = [];
  const add: ReturnType<typeof lineInput>[] = [];
  const wantedIds = new Set(wanted.lines.map((l) => l.lineId));
  for (const [lineId, sent] of Object.entries(handle.lines)) {
    const now = wanted.lines.find((l) => l.lineId === lineId);
    if (sent.cartLine && (!wantedIds.has(lineId) || now?.variantId !== sent.variantId)) remove.push(sent.cartLine);
  }
  for (const line of wanted.lines) {
    const sent = handle.lines[line.lineId];
    if (!sent || sent.variantId !== line.variantId) add.push(lineInput(line));
    else if (sent.cartLine && sent.quantity !== line.quantity) update.push({ id: sent.cartLine, quantity: line.quantity });
    else if (!sent.cartLine && sent.problem === 'out_of_stock' && sent.quantity !== line.quantity) add.push(lineInput(line));
  }
  const doCodes = JSON.stringify(handle.codes) !== JSON.stringify(wanted.codes);
  const doBuyer = handle.buyer !== fingerprint(wanted.buyer);
  const doAddresses = handle.address !== fingerprint(wanted.address);
  const doOptions =
    !doAddresses && Object.keys(wanted.options).length > 0 && JSON.stringify(handle.options) !== JSON.stringify(wanted.options);
  const options = doOptions ? optionInputs(handle.groups, wanted.options) : [];
  const variables = {
    cartId: handle.cart,
    buyer: wanted.buyer,
    doBuyer,
    remove,
    doRemove: remove.length > 0,
    update,
    doUpdate: update.length > 0,
    add,
    doAdd: add.length > 0,
    codes: wanted.codes,
    doCodes,
    addresses: addressesInput(wanted.address),
    doAddresses,
    options,
    doOptions: options.length > 0,
  };
  const changed =
    variables.doBuyer || variables.doRemove || variables.doUpdate || variables.doAdd || doCodes || doAddresses || variables.doOptions;
  return { variables, changed, optionsAfter: doAddresses && Object.keys(wanted.options).length > 0 };
}

export function optionInputs(groups: Record<string, string>, options: Record<string, string>) {
  return Object.entries(options).flatMap(([key, handle]) =>
    groups[key] ? [{ deliveryGroupId: groups[key], deliveryOptionHandle: handle }] : [],
  );
}

/** Stable group keys: `shipping` for Shopify's usual single group, else one per set of lines. */
export function groupKeys(cart: SfCart): Map<string, string> {
  const groups = cart.deliveryGroups.nodes;
  if (groups.length === 1) return new Map([[groups[0]!.id, 'shipping']]);
  const lineIdOf = new Map(cart.lines.nodes.map((l) => [l.id, l.attributes.find((a) => a.key === LINE_ATTRIBUTE)?.value ?? l.id]));
  return new Map(groups.map((g) => [g.id, `shipping-${fingerprint(g.cartLines.nodes.map((l) => lineIdOf.get(l.id)).sort())}`]));
}

/** The handle for the cart as Shopify now has it, after sending `wanted`. */
export function nextHandle(cart: SfCart, wanted: WantedCart, problems: Map<string, SentLine['problem']>): CartHandle {
  const byLine = new Map(cart.lines.nodes.map((l) => [l.attributes.find((a) => a.key === LINE_ATTRIBUTE)?.value ?? '', l]));
  const keys = groupKeys(cart);
  const selected = Object.fromEntries(
    cart.deliveryGroups.nodes.flatMap((g) => (g.selectedDeliveryOption ? [[keys.get(g.id)!, g.selectedDeliveryOption.handle]] : [])),
  ) as Record<string, string>;
  const reference = cart.attributes.find((a) => a.key === REFERENCE_ATTRIBUTE)?.value;
  return {
    cart: cart.id,
    url: cart.checkoutUrl,
    ...(reference && { reference }),
    lines: Object.fromEntries(
      wanted.lines.map((l) => {
        const inCart = byLine.get(l.lineId);
        const problem = problems.get(l.lineId) ?? (inCart ? undefined : 'out_of_stock');
        return [
          l.lineId,
          {
            ...(inCart && { cartLine: inCart.id }),
            variantId: l.variantId,
            quantity: inCart?.quantity ?? l.quantity,
            ...(problem && { problem }),
          },
        ];
      }),
    ),
    codes: wanted.codes,
    buyer: fingerprint(wanted.buyer),
    address: fingerprint(wanted.address),
    options: Object.fromEntries(Object.entries(wanted.options).filter(([key, handle]) => selected[key] === handle)),
    groups: Object.fromEntries([...keys].map(([id, key]) => [key, id])),
  };
}

/**
 * Absolute quantities for cart lines holding more than wanted: a `cartLinesAdd` replayed after a
 * lost response merges into the line Shopify already had (or a line the buyer since dropped).
 */
export function excessLines(cart: SfCart, wanted: WantedCart): Array<{ id: string; quantity: number }> {
  const byLine = new Map(wanted.lines.map((l) => [l.lineId, l]));
  return cart.lines.nodes.flatMap((line) => {
    const want = byLine.get(line.attributes.find((a) => a.key === LINE_ATTRIBUTE)?.value ?? '');
    const quantity = want && want.variantId === line.merchandise.id ? want.quantity : 0;
    return line.quantity > quantity ? [{ id: line.id, quantity }] : [];
  });
}

/** Shopify's "no such cart": the handle is stale and the cart must be made again. */
export const cartGone = (errors: SfUserError[]) =>
  errors.some((e) => e.field?.[0] === 'cartId' || /cart.*(does not exist|not found)/i.test(e.message));

/**
 * Indices of lines refused for their merchandise (unknown or unavailable variant). `field` is the
 * path to the input field: from the argument `lines` (cartLinesAdd) or `input` (cartCreate).
 */
export function refusedLineIndices(errors: SfUserError[]): number[] {
  return errors.flatMap((e) => {
    const at = e.field?.indexOf('lines') ?? -1;
    const index = at >= 0 ? e.field![at + 1] : undefined;
    return index !== undefined && /^\d+$/.test(index) ? [Number(index)] : [];
  });
}

/** The cart as the last step that ran left it. */
export function lastCart(payloads: Array<SfCartPayload | null | undefined>): SfCart | null {
  return payloads.reduce<SfCart | null>((cart, p) => p?.cart ?? cart, null);
}
