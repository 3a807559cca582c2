/**
 * Checkouts whose order the store places on its own page: handed off to the store's checkout page
 * (`continue_url` from the adapter's `checkoutUrl`, carrying the checkout id as reference), or
 * waiting for the buyer to confirm a payment there (a challenge, completion/challenge.ts). The
 * record outlives the session: a buyer may pay on the store long after the checkout expired, and
 * the order the store then reports (a backend event or a poll naming the reference, or the
 * store-side reference the adapter named: a cart, a payment) still reaches the platform that
 * handed it off, with the checkout's line ids.
 */
import { InvalidBackendAnswer } from '../../../adapters/contract.js';
import type { OperationContext } from '../context.js';
import { fingerprint } from '../../security/fingerprint.js';
import type { CheckoutLineRef } from '../order/checkout-lines.js';
import type { OrderRecipient } from '../order/order-recipient.js';
import { keepsReference } from '../../tenancy/order-links.js';

export interface HandoffRecord {
  checkoutId: string;
  recipient: OrderRecipient;
  /** Epoch ms of the latest handoff. */
  handedOffAt: number;
  /** The checkout's lines when it was handed off (see order/checkout-lines.ts). */
  lines?: CheckoutLineRef[];
}

/** What the store named of the handoff, besides the reference. */
export interface HandoffLinks {
  /** The store-side object its order will come from (`CheckoutPage.storeReference`, `requires_action`). */
  storeReference?: string;
  lines?: CheckoutLineRef[];
}

/** Long enough for a buyer to come back to a store's checkout page (Shopify keeps a cart 10 days). */
const HANDOFF_TTL_MS = 30 * 86_400_000;

type Ctx = Pick<OperationContext, 'store' | 'tenant'>;

const key = (tenantId: string, checkoutId: string) => `handoff:${tenantId}:${checkoutId}`;
/** Store references are the store's text: hashed into the key. */
const storeKey = (tenantId: string, storeReference: string) => `handoff-store-ref:${tenantId}:${fingerprint([storeReference])}`;

/**
 * Remembers the handoff. `what`: the adapter call that answered (for the error when a store that
 * keeps no reference named no store reference either: its order could never be matched).
 */
export async function saveHandoff(
  ctx: Ctx & Pick<OperationContext, 'now'>,
  checkoutId: string,
  recipient: OrderRecipient,
  links: HandoffLinks = {},
  what = 'checkoutUrl',
): Promise<void> {
  const { storeReference, lines } = links;
  if (storeReference === undefined && !keepsReference(ctx.tenant.adapter.capabilities)) {
    throw new InvalidBackendAnswer(
      what,
      'answer: no storeReference, and the store keeps no reference of the gateway (capabilities.orderLinks)',
    );
  }
  const record: HandoffRecord = { checkoutId, recipient, handedOffAt: ctx.now(), ...(lines?.length && { lines }) };
  await ctx.store.set(key(ctx.tenant.id, checkoutId), record, HANDOFF_TTL_MS);
  if (storeReference !== undefined) await ctx.store.set(storeKey(ctx.tenant.id, storeReference), checkoutId, HANDOFF_TTL_MS);
}

export async function loadHandoff(ctx: Ctx, checkoutId: string): Promise<HandoffRecord | null> {
  return (await ctx.store.get<HandoffRecord>(key(ctx.tenant.id, checkoutId)))?.value ?? null;
}

/** The handoff an order reported by the store belongs to: by the reference it carries, else by its store reference. */
export async function findHandoff(
  ctx: Ctx,
  order: { reference?: string | undefined; storeReference?: string | undefined },
): Promise<HandoffRecord | null> {
  const byReference = order.reference === undefined ? null : await loadHandoff(ctx, order.reference);
  if (byReference || order.storeReference === undefined) return byReference;
  const checkoutId = (await ctx.store.get<string>(storeKey(ctx.tenant.id, order.storeReference)))?.value;
  return checkoutId === undefined ? null : loadHandoff(ctx, checkoutId);
}
