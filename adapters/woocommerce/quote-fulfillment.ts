/**
 * Fulfillment of a quote from the store's cart: one group per shipping package (key
 * `package-{id}`); when the platform takes a single group and the store ships several packages,
 * one group `packages-{ids}` offers the rates every package has, priced as their sum. The rates a
 * buyer selects go to the store per package; an address the store refused is reported field by
 * field on the destination, and nothing is quoted for it. Local Pickup's rates
 * (`pickup_location`, src/Shipping/PickupLocation.php: one per location in every package, taxed
 * at the location) are no shipping to the buyer's address: they are left out.
 */
import type {
  FulfillmentGroupQuote,
  FulfillmentMethodQuote,
  FulfillmentOptionQuote,
  PostalAddress,
  QuotedLine,
  QuoteRequest,
} from '../contract.js';
import type { WpErrorBody } from './http.js';
import type { CartOutcome } from './store-cart.js';
import type { StoreCart } from './wc-shapes.js';

type StoreRate = StoreCart['shipping_rates'][number]['shipping_rates'][number];
/** The checkout block's Local Pickup method: its rates are pickup locations, not shipping. */
const PICKUP_METHOD = 'pickup_location';

/** A rate the buyer selected, for one of the store's packages. */
type RateSelection = { packageId: number; rateId: string };

/** Group keys name the packages they stand for: `package-0`, or `packages-0-1` for a merged group. */
const packagesOfKey = (key: string): number[] => {
  const single = /^package-(\d+)$/.exec(key);
  if (single) return [Number(single[1])];
  const merged = /^packages-(\d+(?:-\d+)*)$/.exec(key);
  return merged ? merged[1]!.split('-').map(Number) : [];
};

/** The rates selected in the request's shipping methods, per package of their groups. */
export function rateSelections(request: QuoteRequest): RateSelection[] {
  return (request.fulfillment?.methods ?? [])
    .filter((m) => m.type === 'shipping')
    .flatMap((m) =>
      Object.entries(m.selectedOptions ?? {}).flatMap(([key, rateId]) => packagesOfKey(key).map((packageId) => ({ packageId, rateId }))),
    );
}

/** The address fields named by the store's validation codes (AbstractAddressSchema::validate_callback). */
const REFUSED_FIELD: Record<string, keyof PostalAddress> = {
  invalid_country: 'country',
  invalid_state: 'region',
  invalid_postcode: 'postalCode',
  invalid_phone: 'phone',
  invalid_first_name: 'firstName',
  invalid_last_name: 'lastName',
  invalid_address_1: 'streetAddress',
  invalid_address_2: 'extendedAddress',
  invalid_city: 'locality',
};

interface RefusalDetail {
  code?: unknown;
  message?: unknown;
  additional_errors?: Array<{ code?: unknown; message?: unknown }>;
}

/** What `cart/update-customer` refused of the shipping address, field by field (rest_invalid_param details). */
function addressRefusals(error: WpErrorBody): NonNullable<FulfillmentMethodQuote['destinationProblems']> {
  const data = error.data as { details?: Record<string, RefusalDetail>; params?: Record<string, unknown> } | undefined;
  const detail = data?.details?.shipping_address;
  const all = detail ? [detail, ...(detail.additional_errors ?? [])] : [];
  const problems = all.flatMap((e) => {
    if (typeof e.message !== 'string') return [];
    const field = typeof e.code === 'string' ? REFUSED_FIELD[e.code] : undefined;
    return [{ ...(field && { field }), detail: e.message }];
  });
  if (problems.length) return problems;
  const said = data?.params?.shipping_address ?? data?.params?.billing_address;
  return [{ detail: typeof said === 'string' ? said : error.message }];
}

/** What quoting the fulfillment of a cart needs besides the request. */
interface FulfillmentInput {
  outcome: CartOutcome;
  lines: QuotedLine[];
  /** The cart item key of each priced line (the store's packages list items by key). */
  itemKeyOfLine: Map<string, string>;
  money: (value: string) => number;
  selections: RateSelection[];
  /** The request names a shipping address. */
  hasDestination: boolean;
}

/**
 * The requested methods as the store can fulfill them; `refused` when the store refused the
 * address (the cart stays on the one before: nothing is quoted for either). Undefined when the
 * request asks for no fulfillment.
 */
export function quoteFulfillment(
  request: QuoteRequest,
  input: FulfillmentInput,
): { fulfillment: FulfillmentMethodQuote[] | undefined; refused: boolean } {
  const addressError = input.outcome.errors.find((e) => e.step.kind === 'address')?.error;
  const refusals = addressError ? addressRefusals(addressError) : undefined;
  if (!request.fulfillment) return { fulfillment: undefined, refused: Boolean(refusals) };
  const fulfillment = methodQuotes(request, input, input.hasDestination && !refusals).map((m) =>
    refusals && m.type === 'shipping' ? { ...m, destinationProblems: refusals } : m,
  );
  return { fulfillment, refused: Boolean(refusals) };
}

/** The selected options' amounts; null while no group has one. */
export function sumSelected(methods: FulfillmentMethodQuote[]): number | null {
  const selected = methods.flatMap((m) => m.groups.flatMap((g) => g.options.filter((o) => o.id === g.selectedOptionId)));
  return selected.length ? selected.reduce((n, o) => n + o.amount, 0) : null;
}

function methodQuotes(request: QuoteRequest, input: FulfillmentInput, hasDestination: boolean): FulfillmentMethodQuote[] {
  const { outcome, lines, itemKeyOfLine, selections } = input;
  const rateErrors = new Set(outcome.errors.filter((e) => e.step.kind === 'rate').map((e) => (e.step as { index: number }).index));
  const refused = new Set(selections.filter((_, i) => rateErrors.has(i)).map((s) => `${s.packageId}|${s.rateId}`));
  const priced = new Set(lines.map((l) => l.lineId));
  const cart = outcome.cart;
  return request.fulfillment!.methods.map((method) => {
    const lineIds = method.lineIds.filter((id) => priced.has(id) && lines.find((l) => l.lineId === id)!.requiresShipping);
    const base = { methodId: method.methodId, type: method.type, lineIds };
    if (method.type !== 'shipping') {
      return { ...base, groups: [{ key: 'pickup', lineIds, options: [], unavailableReason: 'This store offers no pickup.' }] };
    }
    if (lineIds.length === 0) return { ...base, groups: [] };
    if (!hasDestination) return { ...base, groups: [{ key: 'package-0', lineIds, options: [] }] };
    if (!cart.has_calculated_shipping) {
      return { ...base, groups: [{ key: 'package-0', lineIds, options: [], unavailableReason: 'The store cannot ship to this address.' }] };
    }
    const packages = cart.shipping_rates.map((p) => ({
      id: Number(p.package_id),
      lineIds: lineIds.filter((id) => p.items.some((i) => i.key === itemKeyOfLine.get(id))),
      rates: p.shipping_rates.filter((r) => r.method_id !== PICKUP_METHOD),
    }));
    const chosen = (key: string, options: FulfillmentOptionQuote[], ids: number[]) => {
      const wanted = method.selectedOptions?.[key];
      const ok = wanted && options.some((o) => o.id === wanted) && ids.every((id) => !refused.has(`${id}|${wanted}`));
      return ok ? { selectedOptionId: wanted } : {};
    };
    const groups =
      packages.length <= 1 || request.fulfillment!.multiGroup
        ? packages.map((p) => packageGroup(p, input.money, chosen))
        : [mergedGroup(packages, lineIds, input.money, chosen)];
    return { ...base, groups };
  });
}

type Package = { id: number; lineIds: string[]; rates: StoreRate[] };
type Chosen = (key: string, options: FulfillmentOptionQuote[], ids: number[]) => { selectedOptionId?: string };

const NO_OPTION = 'The store has no shipping option for this address.';

function optionOf(r: StoreRate, amount: number): FulfillmentOptionQuote {
  const description = [r.description, r.delivery_time].filter(Boolean).join(', ');
  return { id: r.rate_id, title: r.name, ...(description && { description }), amount };
}

/** One group per package, with the package's rates. */
function packageGroup(p: Package, money: (value: string) => number, chosen: Chosen): FulfillmentGroupQuote {
  const key = `package-${p.id}`;
  const options = p.rates.map((r) => optionOf(r, money(r.price))).sort((a, b) => a.amount - b.amount);
  return {
    key,
    lineIds: p.lineIds,
    options,
    ...(options.length === 0 && { unavailableReason: NO_OPTION }),
    ...chosen(key, options, [p.id]),
  };
}

/** Every package as one group: the rates they all have, each priced as the sum over the packages. */
function mergedGroup(packages: Package[], lineIds: string[], money: (value: string) => number, chosen: Chosen): FulfillmentGroupQuote {
  const key = `packages-${packages.map((p) => p.id).join('-')}`;
  const common = packages[0]!.rates.filter((r) => packages.every((p) => p.rates.some((x) => x.rate_id === r.rate_id)));
  const options = common
    .map((r) =>
      optionOf(
        r,
        packages.reduce((n, p) => n + money(p.rates.find((x) => x.rate_id === r.rate_id)!.price), 0),
      ),
    )
    .sort((a, b) => a.amount - b.amount);
  return {
    key,
    lineIds,
    options,
    ...(options.length === 0 && { unavailableReason: NO_OPTION }),
    ...chosen(
      key,
      options,
      packages.map((p) => p.id),
    ),
  };
}
