/**
 * Medusa through the generic REST adapter (examples/rest-tenants/tenants/medusa.yaml: a tenant file
 * and mappings, no Medusa code in the gateway) through the shared adapter contract suite, against the
 * real Medusa server of this run (test/helpers/medusa-global.ts) behind a fault proxy that cuts it
 * off only when the suite asks. Every finishing mode the tenant declares runs: store_charged (the
 * store's test-card provider declines `fail_token`), gateway_charged (Medusa's manual provider, the
 * payment then captured through the Admin API) and handoff (paid as a Medusa storefront pays).
 */
import { describe, it } from 'vitest';
import { runAdapterContract } from '../contract/contract-suite.js';
import { medusaRestAdapter } from '../../helpers/medusa-rest.js';
import { medusaStore } from '../../helpers/medusa-store.js';
import { MEDUSA_POLICY, medusaContractSubject } from './contract-subject.js';

const store = medusaStore();

if (!store)
  describe.skip('adapter contract: medusa through rest (examples/medusa-store is not installed)', () => it('needs Medusa', () => {}));
else runAdapterContract('medusa through the rest adapter (real server)', medusaContractSubject(store, medusaRestAdapter), MEDUSA_POLICY);
