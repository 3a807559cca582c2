/**
 * The gateway's API keys refused by the real Medusa server. A missing, unknown or revoked
 * publishable key is answered 400 NOT_ALLOWED "A valid publishable key is required to proceed with
 * the request" (framework http/middlewares/ensure-publishable-api-key), the same status as a
 * malformed id: it must read as the key, never as a cart Medusa does not know.
 */
import { describe, expect, it } from 'vitest';
import { BackendError } from '../../../../adapters/contract.js';
import { MedusaAdapter } from '../../../../adapters/medusa/index.js';
import { MemoryStore } from '../../../../src/state/memory-store.js';
import { medusaCall, medusaSettings, medusaStore } from '../../../helpers/medusa-store.js';
import { CHICAGO, lines, shippingRequest } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

suite('API keys Medusa refuses (real Medusa server)', () => {
  it('a publishable key revoked while the gateway runs is a final backend error naming the key, not a new cart', async () => {
    const { api_key: key } = await medusaCall(store!, 'admin', 'POST', '/admin/api-keys', {
      title: 'fidelity: revoked',
      type: 'publishable',
    });
    await medusaCall(store!, 'admin', 'POST', `/admin/api-keys/${key.id}/sales-channels`, { add: [store!.seed.salesChannelId] });
    const adapter = await MedusaAdapter.create({
      settings: medusaSettings(store!),
      publishableKey: key.token,
      secretKey: store!.seed.secretKey,
      store: new MemoryStore(),
      tenantId: 'medusa-fidelity-keys',
    });
    try {
      const first = await adapter.quote(shippingRequest({ lines: lines(store!, { bouquet_roses: 1 }) }, CHICAGO));
      await medusaCall(store!, 'admin', 'POST', `/admin/api-keys/${key.id}/revoke`, {});
      const again = adapter.quote(shippingRequest({ lines: lines(store!, { bouquet_roses: 1 }), handle: first.handle! }, CHICAGO));
      await expect(again).rejects.toBeInstanceOf(BackendError);
      await expect(again).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('publishable API key') });
    } finally {
      await adapter.close();
    }
  });
});
