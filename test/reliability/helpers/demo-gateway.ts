/**
 * The gateway the reliability suites attack: in-process, in front of the real demo store
 * (config/demo) on a fixed clock, with every capability enabled, any number of agents (each
 * its own profile URL on one loopback platform), and the state store of the test's choice.
 */
import { join } from 'node:path';
import type { Adapter } from '../../../adapters/contract.js';
import { createMemoryAdapter } from '../../../adapters/memory/index.js';
import type { GatewaySecret } from '../../../src/config/gateway-secret.js';
import type { TenantConfig } from '../../../src/config/tenant-schema.js';
import type { ProfileFetcher } from '../../../src/protocol/profile-fetcher.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import type { StateStore } from '../../../src/state/store.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { platformProfile, type PlatformServer } from '../../helpers/platform.js';

/** 2026-03-10T12:00:00Z, the demo store's reference day (codes, preorders). */
export const NOW = Date.parse('2026-03-10T12:00:00Z');

export interface DemoGateway extends TestGateway {
  /** The adapter the tenant calls (after `wrapAdapter`, before the gateway's resilient wrapper). */
  backend: Adapter;
  /** Profile URL of agent `name`, served on the platform (every capability). */
  agent(name: string): string;
}

export interface DemoGatewayOptions {
  store?: StateStore;
  platform?: PlatformServer;
  tenant?: Partial<TenantConfig>;
  /** Wraps the demo adapter (fault injection, call counting). */
  wrapAdapter?: (adapter: Adapter) => Adapter;
  secret?: GatewaySecret;
  profiles?: ProfileFetcher;
  logLevel?: string;
}

export async function demoGateway(options: DemoGatewayOptions = {}): Promise<DemoGateway> {
  const now = () => NOW;
  const ownStore = options.store ? undefined : new MemoryStore({ now });
  const store = options.store ?? ownStore!;
  const demo = await createMemoryAdapter({ dataDir: join(process.cwd(), 'config/demo'), storefrontUrl: 'https://flowers.example/store', now, store, tenantId: 'shop' });
  const backend = options.wrapAdapter ? options.wrapAdapter(demo) : demo;
  const gw = await testGateway({
    now,
    store,
    adapter: backend,
    ...(options.platform && { platform: options.platform }),
    ...(options.secret && { secret: options.secret }),
    ...(options.profiles && { profiles: options.profiles }),
    ...(options.logLevel && { logLevel: options.logLevel }),
    tenant: { links: [{ type: 'terms_of_service', url: 'https://flowers.example/policies/terms' }], ...options.tenant },
  });
  const close = gw.close;
  const served = new Set<string>();
  return Object.assign(gw, {
    backend,
    agent(name: string) {
      const path = `/agents/${encodeURIComponent(name)}/.well-known/proto`;
      if (!served.has(path)) gw.platform.serve(path, platformProfile());
      served.add(path);
      return gw.platform.url(path);
    },
    async close() {
      await close();
      await ownStore?.close();
    },
  });
}

/** Ids the demo store knows, so generated requests reach past "not found" often. */
export const DEMO_WORDS = [
  'bouquet_roses',
  'pot_ceramic',
  'bouquet_sunflowers',
  'bouquet_tulips',
  'orchid_white',
  'florist_tee',
  'florist_tee_m_green',
  'florist_tee_l_white',
  'TEE-S-GRN',
  'ebook_flower_care',
  'vase_glass',
  'bouquet_peonies',
  'wreath_holiday',
  '10OFF',
  'WELCOME20',
  'FIXED500',
  'USD',
  'EUR',
  'JPY',
  'US',
  'CA',
  'IL',
  'shipping',
  'pickup',
  'loop',
  'Size',
  'Color',
  'M',
  'Green',
];
