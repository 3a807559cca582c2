/** Schema of config/demo/eligibility.yaml (its header explains the fields). */
import { Type, type Static } from '@sinclair/typebox';

export const EligibilityFile = Type.Object(
  {
    claims: Type.Record(
      Type.String({ pattern: '^[a-z0-9]+(\\.[a-z0-9_]+)+$' }),
      Type.Object(
        {
          customers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
          emails: Type.Optional(Type.Array(Type.String({ format: 'email' }))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type EligibilityFile = Static<typeof EligibilityFile>;
