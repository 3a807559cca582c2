/** Schemas of config/demo/discounts.yaml and promotions.yaml (their headers explain the fields). */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../../schemas/common.js';

/** Rules shared by codes and automatic promotions. */
const ruleFields = {
  title: Type.Optional(Type.String({ minLength: 1 })),
  type: Type.Optional(StringEnum(['percentage', 'fixed_amount', 'free_shipping'])),
  value: Type.Optional(Type.Integer({ minimum: 1 })),
  method: Type.Optional(StringEnum(['each', 'across'])),
  priority: Type.Optional(Type.Integer({ minimum: 1 })),
  applies_to: Type.Optional(
    Type.Object(
      {
        products: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
        categories: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
      },
      { additionalProperties: false },
    ),
  ),
  service_levels: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
  min_subtotal: Type.Optional(Type.Integer({ minimum: 1 })),
  min_quantity: Type.Optional(Type.Integer({ minimum: 1 })),
  starts_at: Type.Optional(Type.String({ format: 'date-time' })),
  ends_at: Type.Optional(Type.String({ format: 'date-time' })),
};

export const DiscountsFile = Type.Object(
  {
    codes: Type.Array(
      Type.Object(
        {
          code: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
          ...ruleFields,
          individual_use: Type.Optional(Type.Boolean()),
          requires_login: Type.Optional(Type.Boolean()),
          customers: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
          emails: Type.Optional(Type.Array(Type.String({ format: 'email' }), { minItems: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type DiscountsFile = Static<typeof DiscountsFile>;

export const PromotionsFile = Type.Object(
  {
    promotions: Type.Array(
      Type.Object(
        {
          id: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
          ...ruleFields,
          eligibility: Type.Optional(Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PromotionsFile = Static<typeof PromotionsFile>;
