/**
 * The REST adapter with no mapping at all (its defaults, defaults.ts) in front of a store that
 * implements the documented store API (docs/adapters/rest-store-api.yaml), through the shared
 * adapter contract suite.
 */
import { createRestAdapter } from '../../../adapters/rest/index.js';
import { RestSettings } from '../../../adapters/rest/settings.js';
import { answerProblem, type CheckedMethod } from '../../../src/tenancy/adapter-answers.js';
import { compile } from '../../../schemas/validator.js';
import { DEMO_CARD_TOKENS, DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { runAdapterContract, type BackendFault } from '../contract/contract-suite.js';
import { DOCUMENTED_TOKEN, DOCUMENTED_WEBHOOK_SECRET, startDocumentedStore } from '../../helpers/documented-store.js';
import { NOW } from '../memory/fixtures.js';

const FAULTS = { throttle: 429, server_error: 500, garbage: 'garbage', hang: 'hang' } as const satisfies Record<BackendFault, unknown>;

runAdapterContract('rest (documented store API, default mappings)', async () => {
  const store = await startDocumentedStore();
  const settings = compile<RestSettings>(RestSettings)({
    base_url: store.origin,
    storefront_url: 'https://flowers.example/store',
    currencies: ['USD'],
    money: 'minor',
    auth: { type: 'bearer', token: 'token' },
    capabilities: { lookup_keys: ['sku', 'handle'], rejection_reasons: true, finishing: ['gateway_charged', 'store_charged', 'handoff'] },
    webhooks: { secret: 'webhook' },
    polling: true,
  });
  if (!settings.ok) throw new Error(settings.message);
  const adapter = await createRestAdapter(settings.value, {
    credentials: { token: DOCUMENTED_TOKEN, webhook: DOCUMENTED_WEBHOOK_SECRET },
    where: 'test/documented.yaml',
    tenantId: 'documented',
    now: () => NOW,
    answerProblem: (method, answer) => answerProblem(method as CheckedMethod, answer),
  });
  return {
    adapter,
    fixtures: {
      ...DEMO_SHOP_FIXTURES,
      gatewayHandlerId: 'sandbox',
      storeCharged: { handlerId: 'store', ...DEMO_CARD_TOKENS },
    },
    controls: {
      failNext: (fault, count = 1) => store.failNext.push(...Array(count).fill(FAULTS[fault])),
      reset: () => void store.failNext.splice(0),
      async payHandoff({ url, address, buyer }) {
        const { orderId, reference } = await store.engine.purchase(url, address, buyer);
        return { orderId, delivery: store.webhook('order.created', orderId, reference) };
      },
      async shipOrder(orderId) {
        await store.engine.simulate(orderId, { type: 'ship', trackingNumber: '1Z999', carrier: 'UPS' });
        return store.webhook('order.updated', orderId);
      },
      pingDelivery: () => store.webhook('ping'),
    },
    close: () => store.close(),
  };
});
