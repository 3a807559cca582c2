/**
 * The run's Medusa server (test/helpers/medusa-global.ts) for a test file: its address and seed,
 * the adapter built on it as the gateway builds it, and Admin API calls for tests that act as the
 * merchant (ship an order) or as a storefront (pay a handed-off cart).
 */
import { inject } from 'vitest';
import { MedusaAdapter } from '../../adapters/medusa/index.js';
import type { MedusaSettings } from '../../adapters/medusa/settings.js';
import { MEDUSA_PAYMENT_PROVIDERS, type MedusaSeed } from '../../scripts/medusa-store.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { StateStore } from '../../src/state/store.js';

export interface RunningMedusa {
  url: string;
  seed: MedusaSeed;
}

/** The run's store; undefined (outside CI, without the install) when the suites cannot run. */
export function medusaStore(): RunningMedusa | undefined {
  const provided = inject('medusaStore');
  return provided.url && provided.seed ? { url: provided.url, seed: provided.seed } : undefined;
}

export const STOREFRONT = 'https://petal-and-stem.example';

export function medusaSettings(store: RunningMedusa, extra: Partial<MedusaSettings> = {}): MedusaSettings {
  return { backend_url: store.url, storefront_url: STOREFRONT, payment_provider: MEDUSA_PAYMENT_PROVIDERS.stripeLike, ...extra };
}

export function medusaAdapter(
  store: RunningMedusa,
  options: { url?: string; state?: StateStore; settings?: Partial<MedusaSettings> } = {},
) {
  return MedusaAdapter.create({
    settings: medusaSettings({ ...store, url: options.url ?? store.url }, options.settings),
    publishableKey: store.seed.publishableKey,
    secretKey: store.seed.secretKey,
    store: options.state ?? new MemoryStore(),
    tenantId: `medusa-test-${Math.random().toString(36).slice(2, 8)}`,
  });
}

/** One call to Medusa's HTTP API as the merchant (secret key) or a storefront (publishable key). */
export async function medusaCall(store: RunningMedusa, as: 'admin' | 'store', method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(store.url + path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(as === 'admin'
        ? { authorization: `Basic ${Buffer.from(`${store.seed.secretKey}:`).toString('base64')}` }
        : { 'x-publishable-api-key': store.seed.publishableKey }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Medusa ${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The merchant ships the whole order on Medusa: a fulfillment, then its shipment with a tracking label. */
export async function shipOnMedusa(store: RunningMedusa, orderId: string): Promise<void> {
  const { order } = await medusaCall(store, 'admin', 'GET', `/admin/orders/${orderId}?fields=id,*items`);
  const items = (order.items as Array<{ id: string; quantity: number }>).map((i) => ({ id: i.id, quantity: i.quantity }));
  await medusaCall(store, 'admin', 'POST', `/admin/orders/${orderId}/fulfillments`, { items, location_id: store.seed.stockLocationId });
  const { order: fulfilled } = await medusaCall(store, 'admin', 'GET', `/admin/orders/${orderId}?fields=id,*fulfillments`);
  const fulfillment = (fulfilled.fulfillments as Array<{ id: string; created_at: string }>).at(-1)!;
  await medusaCall(store, 'admin', 'POST', `/admin/orders/${orderId}/fulfillments/${fulfillment.id}/shipments`, {
    items,
    labels: [
      {
        tracking_number: '1Z999AA10123456784',
        tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        label_url: 'https://labels.example/1',
      },
    ],
  });
}
