/**
 * The reference store's carts: each has an id, keeps what the client last put in it, and is
 * priced by the demo shop's pricing engine (adapters/memory), like a home-grown store that owns
 * its prices. A cart unused for `ttlMs` expires (404), as real store carts do.
 */
import { randomBytes } from 'node:crypto';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { PostalAddress, Quote, QuoteRequest } from '../../adapters/contract.js';
import { quote } from '../../adapters/memory/quote.js';
import type { StoreData } from '../../adapters/memory/model.js';

const Text = Type.String({ maxLength: 500 });
const Address = Type.Object(
  {
    first_name: Type.Optional(Text),
    last_name: Type.Optional(Text),
    line1: Type.Optional(Text),
    line2: Type.Optional(Text),
    city: Type.Optional(Text),
    state: Type.Optional(Text),
    zip: Type.Optional(Text),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    phone: Type.Optional(Text),
  },
  { additionalProperties: false },
);

const Customer = Type.Object(
  { email: Type.Optional(Text), first_name: Type.Optional(Text), last_name: Type.Optional(Text), phone: Type.Optional(Text) },
  { additionalProperties: false },
);
const LocationHint = Type.Object(
  { country: Type.Optional(Type.String()), state: Type.Optional(Text), zip: Type.Optional(Text) },
  { additionalProperties: false },
);
const Coupons = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 });

/** What a client puts in a cart (POST creates, PUT replaces it all; the line API edits it piece by piece). */
export const CartInput = Type.Object(
  {
    lines: Type.Array(
      Type.Object(
        {
          line_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          /** The store's own id of a line added through the line API (whole-cart clients never send it). */
          line_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          variant_id: Type.String({ minLength: 1, maxLength: 200 }),
          qty: Type.Integer(),
        },
        { additionalProperties: false },
      ),
      { maxItems: 200 },
    ),
    coupons: Type.Optional(Coupons),
    customer: Type.Optional(Customer),
    /** A logged-in customer of the store (customers.csv). */
    customer_id: Type.Optional(Type.String({ maxLength: 200 })),
    ship_to: Type.Optional(Address),
    shipping_rate_id: Type.Optional(Type.String({ maxLength: 200 })),
    /** Collected at one of the store's shops (`GET /locations`) instead of shipped. */
    pickup_at: Type.Optional(Type.String({ maxLength: 200 })),
    pickup_option_id: Type.Optional(Type.String({ maxLength: 200 })),
    /** Where the buyer is, for tax estimates before an address is known. */
    location_hint: Type.Optional(LocationHint),
  },
  { additionalProperties: false },
);
export type CartInput = Static<typeof CartInput>;

/** `POST /carts/{id}/lines`: one item into the cart (merged with a line of the same variant). */
export const LineInput = Type.Object(
  {
    variant_id: Type.String({ minLength: 1, maxLength: 200 }),
    qty: Type.Integer(),
    /** The client's own reference for the line, kept on the order line (`line_ref`). */
    ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
/** `PATCH /carts/{id}/lines/{line_id}`. */
export const QtyInput = Type.Object({ qty: Type.Integer() }, { additionalProperties: false });

/** `PATCH /carts/{id}`: everything but the lines; a member given replaces, `null` clears it. */
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
export const DetailsInput = Type.Object(
  {
    coupons: nullable(Coupons),
    customer: nullable(Customer),
    customer_id: nullable(Type.String({ maxLength: 200 })),
    ship_to: nullable(Address),
    shipping_rate_id: nullable(Type.String({ maxLength: 200 })),
    pickup_at: nullable(Type.String({ maxLength: 200 })),
    pickup_option_id: nullable(Type.String({ maxLength: 200 })),
    location_hint: nullable(LocationHint),
  },
  { additionalProperties: false },
);
export type DetailsInput = Static<typeof DetailsInput>;

/** Why the store refuses a line change (422): the item is unknown, or the quantity is out of range. */
export class LineRefused extends Error {
  constructor(
    readonly code: 'unknown_item' | 'bad_quantity',
    message: string,
  ) {
    super(message);
  }
}

/** Quantities a line may have. */
const MAX_LINE_QTY = 999;

export interface CartRecord {
  id: string;
  input: CartInput;
  quote: Quote;
  /** The buyer's checkout on the gateway, set when a checkout link was made for it. */
  reference?: string;
  /** Set once an order was placed from it. */
  orderId?: string;
  updatedAt: number;
}

const SHIPPING_METHOD = 'ship';
const PICKUP_METHOD = 'pickup';
/** The demo engine's key of its one shipping (or pickup) group. */
const SHIPPING_GROUP = 'all';

function toPostalAddress(a: Static<typeof Address>): PostalAddress {
  return {
    ...(a.first_name && { firstName: a.first_name }),
    ...(a.last_name && { lastName: a.last_name }),
    ...(a.line1 && { streetAddress: a.line1 }),
    ...(a.line2 && { extendedAddress: a.line2 }),
    ...(a.city && { locality: a.city }),
    ...(a.state && { region: a.state }),
    ...(a.country && { country: a.country }),
    ...(a.zip && { postalCode: a.zip }),
    ...(a.phone && { phone: a.phone }),
  };
}

/** A cart line's id: the store's (line API), else the client's ref, else its position. */
export const lineIdOf = (line: CartInput['lines'][number], index: number): string => line.line_id ?? line.line_ref ?? `l${index + 1}`;

function quoteRequestOf(input: CartInput, customerEmails: Map<string, string>): QuoteRequest {
  const lines = input.lines.map((l, i) => ({ lineId: lineIdOf(l, i), variantId: l.variant_id, quantity: l.qty }));
  const email = input.customer_id ? customerEmails.get(input.customer_id) : undefined;
  const hint = input.location_hint;
  return {
    lines,
    discountCodes: input.coupons ?? [],
    ...(input.customer && {
      buyer: {
        ...(input.customer.email && { email: input.customer.email }),
        ...(input.customer.first_name && { firstName: input.customer.first_name }),
        ...(input.customer.last_name && { lastName: input.customer.last_name }),
        ...(input.customer.phone && { phone: input.customer.phone }),
      },
    }),
    ...(input.customer_id && email !== undefined && { identity: { customerId: input.customer_id, email } }),
    ...(hint && {
      location: {
        ...(hint.country && { country: hint.country }),
        ...(hint.state && { region: hint.state }),
        ...(hint.zip && { postalCode: hint.zip }),
      },
    }),
    ...(input.pickup_at && {
      fulfillment: {
        multiGroup: false,
        methods: [
          {
            methodId: PICKUP_METHOD,
            type: 'pickup',
            lineIds: lines.map((l) => l.lineId),
            destination: { locationId: input.pickup_at },
            ...(input.pickup_option_id && { selectedOptions: { [SHIPPING_GROUP]: input.pickup_option_id } }),
          },
        ],
      },
    }),
    ...(input.ship_to &&
      !input.pickup_at && {
        fulfillment: {
          multiGroup: false,
          methods: [
            {
              methodId: SHIPPING_METHOD,
              type: 'shipping',
              lineIds: lines.map((l) => l.lineId),
              destination: { address: toPostalAddress(input.ship_to) },
              ...(input.shipping_rate_id && { selectedOptions: { [SHIPPING_GROUP]: input.shipping_rate_id } }),
            },
          ],
        },
      }),
  };
}

export class CartBook {
  private readonly carts = new Map<string, CartRecord>();

  constructor(
    private readonly data: StoreData,
    private readonly now: () => number,
    private readonly ttlMs: number,
  ) {}

  price(input: CartInput): Quote {
    return quote(this.data, quoteRequestOf(input, this.data.customerEmails), this.now());
  }

  create(input: CartInput): CartRecord {
    const cart = { id: `cart_${randomBytes(9).toString('base64url')}`, input, quote: this.price(input), updatedAt: this.now() };
    this.carts.set(cart.id, cart);
    return cart;
  }

  /** undefined when the cart does not exist or expired. */
  get(id: string): CartRecord | undefined {
    const cart = this.carts.get(id);
    if (cart && this.now() - cart.updatedAt > this.ttlMs) this.carts.delete(id);
    return this.carts.get(id);
  }

  replace(id: string, input: CartInput): CartRecord | undefined {
    const cart = this.get(id);
    if (!cart || cart.orderId) return undefined;
    Object.assign(cart, { input, quote: this.price(input), updatedAt: this.now() });
    return cart;
  }

  /** An open cart (not ordered from), undefined when unknown or expired. */
  private open(id: string): CartRecord | undefined {
    const cart = this.get(id);
    return cart && !cart.orderId ? cart : undefined;
  }

  private save(cart: CartRecord, input: CartInput): CartRecord {
    Object.assign(cart, { input, quote: this.price(input), updatedAt: this.now() });
    return cart;
  }

  /** Adds `qty` of a variant: to its line when the cart has one, else as a new line with an id of the store's. */
  addLine(id: string, variantId: string, qty: number, ref?: string): CartRecord | undefined {
    const cart = this.open(id);
    if (!cart) return undefined;
    if (!this.data.variants.has(variantId)) throw new LineRefused('unknown_item', `this store sells no item ${JSON.stringify(variantId)}`);
    const lines = cart.input.lines.map((l) => ({ ...l }));
    const line = lines.find((l) => l.variant_id === variantId);
    const total = (line?.qty ?? 0) + qty;
    if (qty < 1 || total > MAX_LINE_QTY) throw new LineRefused('bad_quantity', `a line holds 1 to ${MAX_LINE_QTY} items`);
    if (line) line.qty = total;
    else lines.push({ line_id: `ln_${randomBytes(6).toString('hex')}`, ...(ref && { line_ref: ref }), variant_id: variantId, qty });
    return this.save(cart, { ...cart.input, lines });
  }

  /** Sets a line's quantity; `null` when the cart has no such line. */
  setLine(id: string, lineId: string, qty: number): CartRecord | undefined | null {
    const cart = this.open(id);
    if (!cart) return undefined;
    if (!cart.input.lines.some((l) => l.line_id === lineId)) return null;
    if (qty < 1 || qty > MAX_LINE_QTY) throw new LineRefused('bad_quantity', `a line holds 1 to ${MAX_LINE_QTY} items`);
    return this.save(cart, { ...cart.input, lines: cart.input.lines.map((l) => (l.line_id === lineId ? { ...l, qty } : l)) });
  }

  /** Removes a line; `null` when the cart has no such line. */
  removeLine(id: string, lineId: string): CartRecord | undefined | null {
    const cart = this.open(id);
    if (!cart) return undefined;
    if (!cart.input.lines.some((l) => l.line_id === lineId)) return null;
    return this.save(cart, { ...cart.input, lines: cart.input.lines.filter((l) => l.line_id !== lineId) });
  }

  /** Replaces the members of `details` that are given; `null` clears one. */
  patch(id: string, details: DetailsInput): CartRecord | undefined {
    const cart = this.open(id);
    if (!cart) return undefined;
    const input: Record<string, unknown> = { ...cart.input };
    for (const [key, value] of Object.entries(details)) {
      if (value === null) delete input[key];
      else if (value !== undefined) input[key] = value;
    }
    return this.save(cart, input as CartInput);
  }

  /** Forgets every cart (a store that purged its carts), for tests of expired carts. */
  clear(): void {
    this.carts.clear();
  }
}
