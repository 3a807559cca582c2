/**
 * What the gateway relies on in an adapter's answers, checked once at the backend boundary
 * (the resilient adapter), so a backend or adapter that answers garbage (null, a missing list,
 * an amount as a decimal string) is a clear `503 backend_invalid_response` instead of a 500
 * from deep inside a capability or, worse, a wrong total shown to a buyer.
 *
 * The shapes are the adapter contract's skeleton: the members capabilities read, with their
 * types (ids strings, amounts integers, lists arrays); unknown members pass. Each is compiled
 * once, and the type checks below keep every shape a subset of its contract type.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  InvalidBackendAnswer,
  type AuthenticatedCustomer,
  type BackendEvent,
  type CheckoutPage,
  type EligibilityVerdict,
  type LookupResult,
  type OrderChange,
  type OrderSnapshot,
  type PickupLocation,
  type PlaceOrderResult,
  type Quote,
  type SearchPage,
  type VariantFulfillment,
} from '../../adapters/contract.js';
import { compile, type Validator } from '../../schemas/validator.js';

const Id = Type.String({ minLength: 1 });
const Amount = Type.Integer();
const Quantity = Type.Integer();
const Currency = Type.String({ pattern: '^[A-Z]{3}$' });
const Lines = Type.Array(Type.Object({ id: Type.String(), quantity: Quantity }));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Kept in every session record: a few KB at most. */
const Handle = Type.String({ minLength: 1, maxLength: 8192 });

const Variant = Type.Object({
  id: Id,
  productId: Id,
  title: Type.String(),
  price: Type.Object({ amount: Amount, currency: Currency }),
  options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  availability: Type.Object({ available: Type.Boolean(), status: Type.String(), quantity: Nullable(Quantity) }),
  requiresShipping: Type.Boolean(),
  locationStock: Type.Optional(Type.Array(Type.Object({ locationId: Id, quantity: Quantity }))),
});

const Product = Type.Object({
  id: Id,
  title: Type.String(),
  categories: Type.Array(Type.Object({ value: Type.String() })),
  media: Type.Array(Type.Object({ type: Type.String(), url: Type.String() })),
  options: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.String()) })),
  variants: Type.Array(Variant),
  featuredVariantId: Id,
  tags: Type.Array(Type.String()),
  rating: Type.Optional(Type.Object({ value: Type.Number(), scaleMax: Type.Number(), count: Quantity })),
});

const SearchPageShape = Type.Object({
  products: Type.Array(Product),
  nextPageToken: Type.Optional(Type.String()),
  totalCount: Type.Optional(Quantity),
});

const LookupShape = Type.Array(
  Type.Object({ product: Product, inputs: Type.Array(Type.Object({ id: Type.String(), variantId: Id, match: Type.String() })) }),
);

const PickupShape = Type.Array(Type.Object({ id: Id, name: Type.String(), address: Type.Object({}) }));

const FulfillmentShape = Type.Array(
  Type.Object({
    variantId: Id,
    methods: Type.Array(
      Type.Object({
        type: Type.String(),
        available: Type.Boolean(),
        status: Type.String(),
        options: Type.Array(Type.Object({ id: Id, title: Type.String(), amount: Amount })),
      }),
    ),
  }),
);

const QuoteShape = Type.Object({
  handle: Type.Optional(Handle),
  currency: Currency,
  lines: Type.Array(
    Type.Object({
      lineId: Id,
      variantId: Id,
      productId: Id,
      title: Type.String(),
      unitPrice: Amount,
      quantity: Quantity,
      requiresShipping: Type.Boolean(),
      fulfillableOn: Nullable(Type.String()),
      subtotal: Amount,
    }),
  ),
  lineProblems: Type.Array(
    Type.Object({ lineId: Id, code: Type.String(), available: Type.Optional(Quantity), detail: Type.Optional(Type.String()) }),
  ),
  discounts: Type.Object({
    applied: Type.Array(
      Type.Object({
        title: Type.String(),
        amount: Amount,
        automatic: Type.Boolean(),
        method: Type.String(),
        priority: Quantity,
        allocations: Type.Array(Type.Object({ target: Type.Object({ kind: Type.String() }), amount: Amount })),
      }),
    ),
    rejected: Type.Array(Type.Object({ code: Type.String(), index: Quantity, reason: Type.Optional(Type.String()) })),
  }),
  fulfillment: Type.Optional(
    Type.Array(
      Type.Object({
        methodId: Id,
        type: Type.String(),
        lineIds: Type.Array(Type.String()),
        groups: Type.Array(
          Type.Object({
            key: Type.String(),
            lineIds: Type.Array(Type.String()),
            options: Type.Array(Type.Object({ id: Id, title: Type.String(), amount: Amount })),
          }),
        ),
      }),
    ),
  ),
  availableMethods: Type.Array(
    Type.Object({
      type: Type.String(),
      lineIds: Type.Array(Type.String()),
      fulfillableOn: Nullable(Type.String()),
      description: Type.String(),
    }),
  ),
  taxLines: Type.Array(Type.Object({ title: Type.String(), amount: Amount, included: Type.Optional(Type.Boolean()) })),
  totals: Type.Object({
    subtotal: Amount,
    itemsDiscount: Amount,
    discount: Amount,
    shipping: Nullable(Amount),
    tax: Nullable(Amount),
    includedTax: Type.Optional(Type.Integer({ minimum: 0 })),
    total: Amount,
  }),
});

/** Named by the store, kept with a checkout or handoff record and used in a state store key: short text. */
const StoreReference = Type.String({ minLength: 1, maxLength: 512 });

const PlaceOrderShape = Type.Union([
  Type.Object({ status: Type.Literal('placed'), orderId: Id }),
  Type.Object({ status: Type.Literal('pending'), storeReference: Type.Optional(StoreReference) }),
  Type.Object({
    status: Type.Literal('requires_action'),
    continueUrl: Type.String({ pattern: '^https?://' }),
    detail: Type.Optional(Type.String()),
    storeReference: Type.Optional(StoreReference),
  }),
  Type.Object({
    status: Type.Literal('rejected'),
    reason: Type.Union(['price_changed', 'out_of_stock', 'incomplete', 'payment_declined'].map((r) => Type.Literal(r))),
    detail: Type.String(),
    actualTotal: Type.Optional(Amount),
  }),
]);

const OrderReferenceShape = Nullable(Type.Object({ orderId: Id }));

const OrderShape = Nullable(
  Type.Object({
    id: Id,
    currency: Currency,
    createdAt: Type.String(),
    lines: Type.Array(
      Type.Object({
        id: Id,
        checkoutLineId: Type.Optional(Id),
        variantId: Type.String(),
        productId: Type.String(),
        title: Type.String(),
        unitPrice: Amount,
        quantity: Type.Object({ original: Quantity, current: Quantity, fulfilled: Quantity }),
        subtotal: Amount,
        discount: Amount,
      }),
    ),
    expectations: Type.Array(Type.Object({ id: Id, lines: Lines, method: Type.String() })),
    events: Type.Array(Type.Object({ id: Id, occurredAt: Type.String(), type: Type.String(), lines: Lines })),
    adjustments: Type.Array(Type.Object({ id: Id, type: Type.String(), occurredAt: Type.String(), status: Type.String() })),
    totals: Type.Object({
      subtotal: Amount,
      itemsDiscount: Amount,
      discount: Amount,
      shipping: Amount,
      tax: Amount,
      total: Amount,
      includedTax: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
    taxLines: Type.Optional(Type.Array(Type.Object({ title: Type.String(), amount: Amount, included: Type.Optional(Type.Boolean()) }))),
    storeReference: Type.Optional(StoreReference),
    customerId: Type.Optional(Type.String({ minLength: 1 })),
    buyerEmail: Type.Optional(Type.String({ minLength: 1 })),
  }),
);

const EventShape = Nullable(
  Type.Union([
    Type.Object({
      kind: Type.Literal('order'),
      eventId: Id,
      orderId: Id,
      topic: Type.String(),
      reference: Type.Optional(Id),
      storeReference: Type.Optional(StoreReference),
    }),
    Type.Object({ kind: Type.Literal('ping'), eventId: Id }),
  ]),
);

const CheckoutUrlShape = Type.Object({
  url: Type.String({ pattern: '^https?://' }),
  handle: Type.Optional(Handle),
  storeReference: Type.Optional(StoreReference),
});

const EligibilityShape = Type.Array(Type.Object({ claim: Type.String(), verified: Type.Boolean() }));

const OrderChangesShape = Type.Array(
  Type.Object({
    orderId: Id,
    reference: Type.Optional(Id),
    storeReference: Type.Optional(StoreReference),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

const CustomerShape = Type.Union([Type.Object({ customerId: Id, email: Type.String({ format: 'email' }) }), Type.Null()]);

// Each shape must accept every value of its contract type (a shape asking for more fails here).
type Covers<Contract, Shape extends TSchema> = Contract extends Static<Shape> ? true : never;
const covered: [
  Covers<SearchPage, typeof SearchPageShape>,
  Covers<LookupResult[], typeof LookupShape>,
  Covers<PickupLocation[], typeof PickupShape>,
  Covers<VariantFulfillment[], typeof FulfillmentShape>,
  Covers<Quote, typeof QuoteShape>,
  Covers<PlaceOrderResult, typeof PlaceOrderShape>,
  Covers<{ orderId: string; permalinkUrl?: string } | null, typeof OrderReferenceShape>,
  Covers<OrderSnapshot | null, typeof OrderShape>,
  Covers<BackendEvent | null, typeof EventShape>,
  Covers<CheckoutPage, typeof CheckoutUrlShape>,
  Covers<EligibilityVerdict[], typeof EligibilityShape>,
  Covers<OrderChange[], typeof OrderChangesShape>,
  Covers<AuthenticatedCustomer | null, typeof CustomerShape>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
void covered;

const shapes = {
  search: SearchPageShape,
  lookup: LookupShape,
  pickupLocations: PickupShape,
  discoverFulfillment: FulfillmentShape,
  quote: QuoteShape,
  placeOrder: PlaceOrderShape,
  findOrderByReference: OrderReferenceShape,
  getOrder: OrderShape,
  verifyWebhook: EventShape,
  checkoutUrl: CheckoutUrlShape,
  verifyEligibility: EligibilityShape,
  ordersChangedSince: OrderChangesShape,
  authenticateCustomer: CustomerShape,
};

export type CheckedMethod = keyof typeof shapes;

const validators = Object.fromEntries(Object.entries(shapes).map(([method, shape]) => [method, compile(shape)])) as Record<
  CheckedMethod,
  Validator<unknown>
>;

/** What is wrong with `answer` for the gateway ("$.lines[0].unitPrice must be integer"), or undefined when nothing is. */
export function answerProblem(method: CheckedMethod, answer: unknown): string | undefined {
  const result = validators[method](answer);
  return result.ok ? undefined : result.message;
}

/** Returns `answer` when it has the shape the gateway relies on; throws InvalidBackendAnswer otherwise. */
export function checkAnswer<T>(method: CheckedMethod, answer: T): T {
  const problem = answerProblem(method, answer);
  if (problem !== undefined) throw new InvalidBackendAnswer(method, `answer: ${problem}`);
  return answer;
}
