/** Schema of config/demo/catalog.yaml (its header comment explains every field). */
import { Type, type Static } from '@sinclair/typebox';

const Id = Type.String({ pattern: '^[A-Za-z0-9_-]+$' });
const Price = Type.Integer({ minimum: 0 });
const Stock = Type.Union([Type.Integer({ minimum: 0 }), Type.Literal('untracked')], { description: 'an integer >= 0 or "untracked"' });
const Image = Type.Object(
  { url: Type.String({ format: 'uri-reference' }), alt: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const Vendor = Type.Object(
  { name: Type.String({ minLength: 1 }), url: Type.Optional(Type.String({ format: 'uri-reference' })) },
  { additionalProperties: false },
);

const Variant = Type.Object(
  {
    id: Id,
    sku: Type.Optional(Type.String({ minLength: 1 })),
    price: Price,
    stock: Stock,
    options: Type.Record(Type.String(), Type.String()),
    image: Type.Optional(Image),
  },
  { additionalProperties: false },
);

const Product = Type.Object(
  {
    id: Id,
    handle: Type.String({ pattern: '^[a-z0-9-]+$' }),
    sku: Type.Optional(Type.String({ minLength: 1 })),
    title: Type.Optional(Type.String({ minLength: 1 })),
    price: Type.Optional(Price),
    stock: Type.Optional(Stock),
    image: Type.Optional(Image),
    /** Alt text of the CSV image. */
    image_alt: Type.Optional(Type.String()),
    description: Type.String(),
    categories: Type.Array(
      Type.Object({ value: Type.String({ minLength: 1 }), taxonomy: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
    tags: Type.Array(Type.String()),
    rating: Type.Optional(
      Type.Object(
        { value: Type.Number({ minimum: 0 }), scale_max: Type.Number({ exclusiveMinimum: 0 }), count: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false },
      ),
    ),
    vendor: Type.Optional(Vendor),
    ships_from: Type.Optional(Id),
    digital: Type.Optional(Type.Boolean()),
    backorder: Type.Optional(Type.Boolean()),
    preorder: Type.Optional(Type.Object({ ships_on: Type.String({ format: 'date' }) }, { additionalProperties: false })),
    discontinued: Type.Optional(Type.Boolean()),
    featured_variant: Type.Optional(Id),
    options: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ minLength: 1 }), values: Type.Array(Type.String(), { minItems: 1 }) },
          { additionalProperties: false },
        ),
        { minItems: 1 },
      ),
    ),
    variants: Type.Optional(Type.Array(Variant, { minItems: 1 })),
  },
  { additionalProperties: false },
);

export const CatalogFile = Type.Object({ vendor: Vendor, products: Type.Array(Product, { minItems: 1 }) }, { additionalProperties: false });
export type CatalogFile = Static<typeof CatalogFile>;
export type CatalogFileProduct = CatalogFile['products'][number];
