/**
 * Who may read an order (spec part 2 §4.1): platform credentials reach the orders that platform
 * originated; a buyer token with `dev.proto.shopping.order:read` reaches that buyer's orders,
 * whichever platform placed them. Nobody else, and nothing for an anonymous caller.
 *
 * A buyer's orders: the buyer the gateway recorded at completion, else the store's customer on
 * the order, else (a guest order) the order's email when it is the one the store verified for the
 * buyer at login.
 */
import type { OrderSnapshot } from '../../../adapters/contract.js';
import { sameProfile, type Principal } from '../../security/auth/principal.js';
import { ORDER_READ } from '../../security/auth/scopes.js';
import type { OrderRecord } from './order-record.js';

type Buyer = Extract<Principal, { kind: 'buyer' }>;

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether the order is the buyer's; `order` is asked of the store only when the record cannot tell. */
async function ownedBy(buyer: Buyer, record: OrderRecord, order: () => Promise<OrderSnapshot | null>): Promise<boolean> {
  if (record.buyerId !== undefined) return record.buyerId === buyer.buyerId;
  const placed = await order();
  if (!placed) return false;
  if (placed.customerId !== undefined) return placed.customerId === buyer.buyerId;
  return buyer.email !== undefined && placed.buyerEmail !== undefined && sameEmail(buyer.email, placed.buyerEmail);
}

export async function mayReadOrder(
  principal: Principal,
  record: OrderRecord,
  order: () => Promise<OrderSnapshot | null>,
): Promise<boolean> {
  switch (principal.kind) {
    case 'platform':
      return sameProfile(principal.profileUrl, record.profileUrl);
    case 'buyer':
      return principal.scopes.includes(ORDER_READ) && (await ownedBy(principal, record, order));
    case 'anonymous':
      return false;
  }
}
