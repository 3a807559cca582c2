/**
 * The fulfillment extension on checkout (spec part 1 §2.8, §4.5): what a platform sends (methods
 * with a type, destinations, the selected destination and an option per group) and what the
 * business answers (its ids for methods, destinations and groups, the options of each group, the
 * methods the lines could use). Catalog fulfillment lives in catalog.ts.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Total } from './common.js';

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const Id = Type.String({ minLength: 1, maxLength: 200 });

/** Postal address members of a shipping destination (and of a retail location's address). */
const addressMembers = {
  first_name: Text(200),
  last_name: Text(200),
  street_address: Text(500),
  extended_address: Text(500),
  address_locality: Text(200),
  address_region: Text(100),
  /** ISO 3166-1 alpha-2 recommended; alpha-3 codes and English names are tolerated. */
  address_country: Text(100),
  postal_code: Text(32),
  phone_number: Text(40),
};

export const PostalAddress = Type.Object(addressMembers);
export type PostalAddress = Static<typeof PostalAddress>;

/** A destination as sent: a shipping address (id optional), or a pickup location by its id. */
const DestinationRequest = Type.Object({ id: Type.Optional(Id), ...addressMembers });
type DestinationRequest = Static<typeof DestinationRequest>;

const GroupRequest = Type.Object({
  id: Type.Optional(Id),
  selected_option_id: Type.Optional(Type.Union([Id, Type.Null()])),
});
type GroupRequest = Static<typeof GroupRequest>;

export const MethodRequest = Type.Object({
  /** The business's id from an earlier response; keeps the method's identity. */
  id: Type.Optional(Id),
  /** Well-known: shipping, pickup. */
  type: Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$' }),
  /** Absent: every line no other method names. */
  line_item_ids: Type.Optional(Type.Array(Id, { maxItems: 100 })),
  destinations: Type.Optional(Type.Array(DestinationRequest, { maxItems: 20 })),
  selected_destination_id: Type.Optional(Type.Union([Id, Type.Null()])),
  groups: Type.Optional(Type.Array(GroupRequest, { maxItems: 20 })),
});
export type MethodRequest = Static<typeof MethodRequest>;

export const FulfillmentRequest = Type.Object({
  methods: Type.Optional(Type.Array(MethodRequest, { maxItems: 10 })),
});
export type FulfillmentRequest = Static<typeof FulfillmentRequest>;

export const ShippingDestination = Type.Object({ id: Type.String(), ...addressMembers }, { additionalProperties: false });
export type ShippingDestination = Static<typeof ShippingDestination>;

export const RetailLocation = Type.Object(
  { id: Type.String(), name: Type.String(), address: Type.Optional(PostalAddress) },
  { additionalProperties: false },
);
export type RetailLocation = Static<typeof RetailLocation>;

export const FulfillmentOption = Type.Object({
  id: Type.String(),
  /** Distinguishes the option from its siblings. */
  title: Type.String(),
  /** Never repeats the title or the total (a plain string on checkout). */
  description: Type.Optional(Type.String()),
  carrier: Type.Optional(Type.String()),
  earliest_fulfillment_time: Type.Optional(Type.String({ format: 'date-time' })),
  latest_fulfillment_time: Type.Optional(Type.String({ format: 'date-time' })),
  totals: Type.Array(Total, { minItems: 1 }),
});
export type FulfillmentOption = Static<typeof FulfillmentOption>;

const FulfillmentGroup = Type.Object({
  id: Type.String(),
  line_item_ids: Type.Array(Type.String()),
  /** Cheapest first. */
  options: Type.Optional(Type.Array(FulfillmentOption)),
  selected_option_id: Type.Union([Type.String(), Type.Null()]),
});
type FulfillmentGroup = Static<typeof FulfillmentGroup>;

export const FulfillmentMethod = Type.Object({
  id: Type.String(),
  type: Type.String(),
  line_item_ids: Type.Array(Type.String()),
  destinations: Type.Optional(Type.Array(Type.Union([ShippingDestination, RetailLocation]))),
  selected_destination_id: Type.Union([Type.String(), Type.Null()]),
  groups: Type.Optional(Type.Array(FulfillmentGroup)),
});
export type FulfillmentMethod = Static<typeof FulfillmentMethod>;

const AvailableMethod = Type.Object({
  type: Type.String(),
  line_item_ids: Type.Array(Type.String()),
  /** `now`, an ISO 8601 date, or null when unknown. */
  fulfillable_on: Type.Union([Type.String(), Type.Null()]),
  /** A standalone sentence. */
  description: Type.Optional(Type.String()),
});
type AvailableMethod = Static<typeof AvailableMethod>;

export const Fulfillment = Type.Object({
  methods: Type.Array(FulfillmentMethod),
  available_methods: Type.Array(AvailableMethod),
});
export type Fulfillment = Static<typeof Fulfillment>;

/**
 * The members the extension adds to checkouts (composed into checkout.ts): read only, and present
 * only, when the extension is active for the caller.
 */
export const FulfillmentMembers = {
  request: { fulfillment: Type.Optional(FulfillmentRequest) },
  response: { fulfillment: Type.Optional(Fulfillment) },
};
