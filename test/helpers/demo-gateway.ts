/**
 * A gateway in front of the real demo store (config/demo) with a clock the test moves. Carts and
 * checkouts are tested through it.
 */
import { join } from 'node:path';
import type { Adapter } from '../../adapters/contract.js';
import { createMemoryAdapter, type MemoryAdapter, type MemoryAdapterOptions } from '../../adapters/memory/index.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { StateStore } from '../../src/state/store.js';
import { testGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';
import type { PlatformServer } from './platform.js';

/** 2026-03-10T12:00:00Z: after SPRING2025 ended, before the peonies ship. */
export const NOW = Date.parse('2026-03-10T12:00:00Z');
export const STOREFRONT = 'https://flowers.example/store';
export const LINKS = [
  { type: 'terms_of_service', url: 'https://flowers.example/policies/terms' },
  { type: 'privacy_policy', url: 'https://flowers.example/policies/privacy' },
];

export interface DemoGateway extends TestGateway {
  clock: { now: number };
  /** The demo store itself (unwrapped): its storefront purchases, simulation and webhooks. */
  demo: MemoryAdapter;
}

/** `store` defaults to a MemoryStore on the test's clock (closed with the gateway). */
export interface DemoGatewayOptions {
  store?: StateStore;
  platform?: PlatformServer;
  tenant?: Partial<TenantConfig>;
  /** Wraps the demo store adapter (to slow it down, count its calls or make it fail). */
  wrapAdapter?: (adapter: Adapter) => Adapter;
  /** Signs the demo store's own webhooks (its `webhook_secret` credential). */
  webhookSecret?: string;
  /** The demo store's own settings (its tenant file's `adapter.settings`). */
  demo?: Pick<MemoryAdapterOptions, 'pricesIncludeTax' | 'orderLinks'>;
  /** Passed on to the gateway as they are. */
  gateway?: Pick<TestGatewayOptions, 'secret' | 'profiles' | 'logLevel' | 'keyring' | 'webhooks' | 'embeddedAssetsDir' | 'operators'>;
}

export async function demoGateway(options: DemoGatewayOptions = {}): Promise<DemoGateway> {
  const clock = { now: NOW };
  const now = () => clock.now;
  const ownStore = options.store ? undefined : new MemoryStore({ now });
  const wrap = options.wrapAdapter ?? ((adapter: Adapter) => adapter);
  const store = options.store ?? ownStore!;
  const demo = await createMemoryAdapter({
    dataDir: join(process.cwd(), 'config/demo'),
    storefrontUrl: STOREFRONT,
    now,
    store,
    tenantId: 'shop',
    ...(options.webhookSecret && { webhookSecret: options.webhookSecret }),
    ...options.demo,
  });
  const gw = await testGateway({
    ...options.gateway,
    now,
    store,
    ...(options.platform && { platform: options.platform }),
    tenant: { links: LINKS, ...options.tenant, policies: { allow_loopback_profiles: true, ...options.tenant?.policies } },
    adapter: wrap(demo),
  });
  const close = gw.close;
  return Object.assign(gw, {
    clock,
    demo,
    async close() {
      await close();
      await ownStore?.close();
    },
  });
}
