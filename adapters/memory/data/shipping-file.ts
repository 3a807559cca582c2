/** Schema of config/demo/shipping.yaml (its header explains the fields). */
import { Type, type Static } from '@sinclair/typebox';

const Id = Type.String({ pattern: '^[A-Za-z0-9_-]+$' });
const Country = Type.String({ pattern: '^[A-Z]{2}$' });

export const AddressFields = Type.Object(
  {
    street_address: Type.String({ minLength: 1 }),
    locality: Type.String({ minLength: 1 }),
    region: Type.Optional(Type.String()),
    country: Country,
    postal_code: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);
export type AddressFields = Static<typeof AddressFields>;

export const ShippingFile = Type.Object(
  {
    origins: Type.Array(
      Type.Object(
        {
          id: Id,
          name: Type.String({ minLength: 1 }),
          address: AddressFields,
          handling_days: Type.Integer({ minimum: 0 }),
          ships_to: Type.Optional(Type.Array(Country, { minItems: 1 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    rates: Type.Array(
      Type.Object(
        {
          id: Id,
          country: Type.Optional(Type.Union([Country, Type.Literal('default')], { description: 'an ISO alpha-2 country or "default"' })),
          service_level: Type.Optional(Type.String({ minLength: 1 })),
          price: Type.Optional(Type.Integer({ minimum: 0 })),
          title: Type.Optional(Type.String({ minLength: 1 })),
          carrier: Type.String({ minLength: 1 }),
          min_days: Type.Integer({ minimum: 0 }),
          max_days: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
    pickup_locations: Type.Array(
      Type.Object(
        {
          id: Id,
          name: Type.String({ minLength: 1 }),
          address: AddressFields,
          ready_within_hours: Type.Integer({ minimum: 0 }),
          stock: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ShippingFile = Static<typeof ShippingFile>;
