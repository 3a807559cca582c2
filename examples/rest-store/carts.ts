/**
 * The reference store's carts: each has an id, keeps what the client last put in it, and is
 * priced by the demo shop's pricing engine (adapters/memory), like a home-grown store that owns
 * its prices. A cart unused for `ttlMs` expires (404), as real store carts do.
 */
import { randomBytes } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
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

/** What a client puts in a cart (POST creates, PUT replaces it all). */
export const CartInput = Type.Object(
  {
    lines: Type.Array(
      Type.Object(
        {
          line_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          variant_id: Type.String({ minLength: 1, maxLength: 200 }),
          qty: Type.Integer(),
        },
        { additionalProperties: false },
      ),
      { maxItems: 200 },
    ),
    coupons: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
    customer: Type.Optional(
      Type.Object(
        { email: Type.Optional(Text), first_name: Type.Optional(Text), last_name: Type.Optional(Text), phone: Type.Optional(Text) },
        { additionalProperties: false },
      ),
    ),
    /** A logged-in customer of the store (customers.csv). */
    customer_id: Type.Optional(Type.String({ maxLength: 200 })),
    ship_to: Type.Optional(Address),
    shipping_rate_id: Type.Optional(Type.String({ maxLength: 200 })),
    /** Where the buyer is, for tax estimates before an address is known. */
    location_hint: Type.Optional(
      Type.Object(
        { country: Type.Optional(Type.String()), state: Type.Optional(Text), zip: Type.Optional(Text) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CartInput = Static<typeof CartInput>;

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
/** The demo engine's key of its one shipping group. */
export const SHIPPING_GROUP = 'all';

export function toPostalAddress(a: Static<typeof Address>): PostalAddress {
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

export function quoteRequestOf(input: CartInput, customerEmails: Map<string, string>): QuoteRequest {
  const lines = input.lines.map((l, i) => ({ lineId: l.line_ref ?? `l${i + 1}`, variantId: l.variant_id, quantity: l.qty }));
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
    ...(input.ship_to && {
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

  /** Forgets every cart (a store that purged its carts), for tests of expired carts. */
  clear(): void {
    this.carts.clear();
  }
}
