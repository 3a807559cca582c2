/**
 * A payment handler takes the buyer's payment for a checkout (spec part 1 §2.1 payment_handlers,
 * §2.9 payment). Each tenant lists its handlers (`payment_handlers[]`, by `type`); an instrument
 * names the one it belongs to by `handler_id`. A handler captures at most once per `reference`
 * (the checkout id), so a retried completion never charges twice.
 */
import type { PaymentRecord } from '../../adapters/contract.js';
import type { Signals } from '../../schemas/common.js';
import type { InstrumentRequest } from '../../schemas/payment.js';

export interface ChargeRequest {
  /** The checkout id. */
  reference: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** With its credential: used for this call only, never kept. Absent for a handler that takes none. */
  instrument?: InstrumentRequest | undefined;
  signals?: Signals | undefined;
}

export type ChargeResult =
  /** Also the answer for a reference already captured (that capture). */
  | { status: 'captured'; payment: PaymentRecord }
  /** Nothing was taken; another instrument may be tried. */
  | { status: 'declined'; reason: string }
  /** The buyer has to act on the store's own page (card authentication, a store that takes payment itself). */
  | { status: 'requires_buyer'; reason: string }
  /** Nothing taken here: the store charges the credential when the order is placed (store_charged). */
  | { status: 'store_charges' };

export interface PaymentHandler {
  /** The tenant's handler id and type (`payment_handlers[]`, a name in payments/registry.ts). */
  readonly id: string;
  readonly type: string;
  /** False for a handler that takes no credential (handoff): complete needs no instrument. */
  readonly takesCredential: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The capture made for `reference`, if any: how an interrupted completion finds out it was paid. */
  captured(reference: string): Promise<PaymentRecord | null>;
  /** Gives back the capture of `reference` (the order could not be placed). */
  release(reference: string): Promise<void>;
}
