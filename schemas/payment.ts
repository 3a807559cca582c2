/**
 * Payment on checkout (spec part 1 §2.9): instruments as a platform sends them (with a credential
 * at complete) and as the business answers (display fields only: a credential never comes back).
 */
import { Type, type Static } from '@sinclair/typebox';
import { PostalAddress } from './fulfillment.js';

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

export const InstrumentDisplay = Type.Object(
  {
    brand: Text(100),
    last_digits: Text(8),
    rich_text_description: Text(1000),
    email: Text(254),
    card_art: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
    description: Text(1000),
  },
  { additionalProperties: false },
);
export type InstrumentDisplay = Static<typeof InstrumentDisplay>;

/** The token the payment handler issued; used once at complete, never stored, echoed or logged. */
const Credential = Type.Object({
  type: Type.String({ minLength: 1, maxLength: 100 }),
  token: Type.String({ minLength: 1, maxLength: 4096 }),
});
type Credential = Static<typeof Credential>;

export const InstrumentRequest = Type.Object({
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** The `id` of one of the business's payment handlers (its profile's payment_handlers). */
  handler_id: Type.String({ minLength: 1, maxLength: 200 }),
  /** One of the handler's available instrument types, e.g. `card`. */
  type: Type.String({ minLength: 1, maxLength: 100 }),
  selected: Type.Optional(Type.Boolean()),
  display: Type.Optional(Type.Object(InstrumentDisplay.properties)),
  billing_address: Type.Optional(PostalAddress),
  credential: Type.Optional(Credential),
});
export type InstrumentRequest = Static<typeof InstrumentRequest>;

export const PaymentRequest = Type.Object({
  instruments: Type.Optional(Type.Array(InstrumentRequest, { maxItems: 10 })),
});
export type PaymentRequest = Static<typeof PaymentRequest>;

/** What a response shows of an instrument: never its credential. */
export const PaymentInstrument = Type.Object(
  {
    id: Type.String(),
    handler_id: Type.String(),
    type: Type.String(),
    selected: Type.Optional(Type.Boolean()),
    display: Type.Optional(InstrumentDisplay),
    billing_address: Type.Optional(PostalAddress),
  },
  { additionalProperties: false },
);
export type PaymentInstrument = Static<typeof PaymentInstrument>;

export const Payment = Type.Object({ instruments: Type.Array(PaymentInstrument) }, { additionalProperties: false });
export type Payment = Static<typeof Payment>;
