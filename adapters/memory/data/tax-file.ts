/** Schema of config/demo/tax.yaml (its header explains the fields and the rounding). */
import { Type, type Static } from '@sinclair/typebox';

const Rule = {
  title: Type.String({ minLength: 1 }),
  rate: Type.String({ pattern: '^(100(\\.0{1,4})?|\\d{1,2}(\\.\\d{1,4})?)$' }),
  shipping_taxable: Type.Boolean(),
};

export const TaxFile = Type.Object(
  {
    rules: Type.Array(
      Type.Object({ region: Type.String({ pattern: '^[A-Z]{2}(-[A-Z0-9]{1,3})?$' }), ...Rule }, { additionalProperties: false }),
    ),
    default: Type.Object(Rule, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type TaxFile = Static<typeof TaxFile>;
