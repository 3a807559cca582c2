/**
 * Who may read an order (spec part 2 §4.1): platform credentials reach the orders that platform
 * originated; a buyer token with `dev.proto.shopping.order:read` reaches that buyer's orders,
 * whichever platform placed them. Nobody else, and nothing for an anonymous caller.
 */
import { sameProfile, type Principal } from '../../security/auth/principal.js';
import { ORDER_READ } from '../../security/auth/scopes.js';
import type { OrderRecord } from './order-record.js';

export function mayReadOrder(principal: Principal, record: OrderRecord): boolean {
  switch (principal.kind) {
    case 'platform':
      return sameProfile(principal.profileUrl, record.profileUrl);
    case 'buyer':
      return record.buyerId !== undefined && principal.buyerId === record.buyerId && principal.scopes.includes(ORDER_READ);
    case 'anonymous':
      return false;
  }
}
