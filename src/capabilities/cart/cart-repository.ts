/** Carts in the state store under `cart:{tenant}:{id}` (see state/session-repository.ts). */
import { SessionRepository } from '../../state/session-repository.js';
import type { StateStore } from '../../state/store.js';
import type { CartRecord } from './cart-record.js';

export class CartRepository extends SessionRepository<CartRecord> {
  constructor(store: StateStore, tenantId: string, now: () => number) {
    super({ store, kind: 'cart', tenantId, now });
  }
}
