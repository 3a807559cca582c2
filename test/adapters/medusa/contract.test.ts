/**
 * The Medusa adapter through the shared adapter contract suite against the real Medusa server of
 * this run (test/helpers/medusa-global.ts), reached through a fault proxy that only cuts it off
 * (throttle, 5xx, garbage, a hang) when the suite asks. Medusa sends no webhooks: order changes
 * are polled, and handed-off carts are paid the way a Medusa storefront pays them.
 */
import { describe, it } from 'vitest';
import { runAdapterContract } from '../contract/contract-suite.js';
import { medusaAdapter, medusaStore } from '../../helpers/medusa-store.js';
import { MEDUSA_POLICY, medusaContractSubject } from './contract-subject.js';

const store = medusaStore();

if (!store) describe.skip('adapter contract: medusa (examples/medusa-store is not installed)', () => it('needs Medusa', () => {}));
else runAdapterContract('medusa (real server)', medusaContractSubject(store, medusaAdapter), MEDUSA_POLICY);
