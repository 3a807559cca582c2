/**
 * The protocol's cart and checkout objects as the page reads them, typed from the wire schemas
 * (schemas/): the page imports their declarations only (tsconfig.schemas.json), never their code.
 */
import type { Cart } from '../../../schemas/cart.js';
import type { Checkout } from '../../../schemas/checkout.js';
import type { ResponseEnvelope } from '../../../schemas/common.js';
import type {
  FulfillmentMethod as AnsweredMethod,
  PostalAddress as Address,
  RetailLocation,
  ShippingDestination,
} from '../../../schemas/fulfillment.js';
import type { InstrumentRequest } from '../../../schemas/payment.js';
import type { PaymentHandlerEntry } from '../../../schemas/profile.js';

export type { Buyer } from '../../../schemas/common.js';
export type { LineItem } from '../../../schemas/line-item.js';

export type PostalAddress = Address & { id?: string };
/** A fulfillment method as answered; the page sends its edits back in the same shape. */
export type FulfillmentMethod = AnsweredMethod;
/** An instrument as the page sends it (at complete with the host's credential). */
export type Instrument = InstrumentRequest;
type PaymentHandler = PaymentHandlerEntry;

/** A pickup method's destinations are the store's named locations; a shipping method's are addresses. */
export const isLocation = (d: ShippingDestination | RetailLocation): d is RetailLocation => 'name' in d;

/**
 * A cart or checkout as the gateway answers it (the REST body, `proto` envelope included): a cart's
 * members, and a checkout's too when the page shows a checkout.
 */
export type Resource = Cart &
  Partial<Omit<Checkout, keyof Cart>> & {
    /** The business's payment handlers in the envelope are its profile's entries. */
    proto: Omit<ResponseEnvelope, 'payment_handlers'> & { payment_handlers?: Record<string, PaymentHandler[]> };
  };
