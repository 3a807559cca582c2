/**
 * A gateway in front of the demo store (config/demo) for order and webhook tests: a signing key
 * for the tenant, a clock the test moves, the order simulation enabled, the webhook worker
 * polling every few milliseconds, and `placeOrder`, which does what checkout completion does:
 * the store places the order, then `saveOrderRecord` records who placed it (queueing the Order
 * created webhook).
 */
import { join } from 'node:path';
import type { Adapter, QuoteRequest } from '../../adapters/contract.js';
import { createMemoryAdapter, type MemoryAdapter } from '../../adapters/memory/index.js';
import { saveOrderRecord, type OrderRecord } from '../../src/capabilities/order/order-record.js';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { generatePrivateJwk, loadKeyring, type Keyring } from '../../src/security/keyring.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { StateStore } from '../../src/state/store.js';
import type { Tenant } from '../../src/tenancy/tenant.js';
import type { WebhookSettings } from '../../src/workers/order-webhooks.js';
import { backoffSchedule, DEFAULT_BACKOFF } from '../../src/state/retry-schedule.js';
import { testGateway, type TestGateway, type TestGatewayOptions } from './gateway.js';
import type { PlatformServer } from './platform.js';

/** 2026-03-10T12:00:00Z. */
export const NOW = Date.parse('2026-03-10T12:00:00Z');
const STOREFRONT = 'https://flowers.example/store';
export const SIMULATION_SECRET = 'simulation-secret-of-the-test-tenant';
export const GATEWAY_SECRET = 'order-tests-gateway-secret-0123456789abcdef';
const CHICAGO = { streetAddress: '123 Main St', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60601' };

/** Retry waits without jitter: exactly 20 s, 1 min, 3 min, ... */
const steadySchedule = () => backoffSchedule({ ...DEFAULT_BACKOFF, random: () => 0.5 });

export async function tenantKeyring(): Promise<Keyring> {
  const jwk = await generatePrivateJwk('ES256');
  return loadKeyring({ keys: [{ env: 'KEY' }], active_kid: jwk.kid }, 'test/tenant.yaml', '.', { KEY: JSON.stringify(jwk) });
}

interface PlaceOrder {
  /** [variant id, quantity]; default 3 roses (l1), 2 pots (l2) shipped by standard shipping, 1 e-book (l3). */
  lines?: Array<[string, number]>;
  /** The checkout id (also the store reference). */
  checkoutId?: string;
  /** The platform that placed it; default the test platform. */
  profileUrl?: string;
  webhookUrl?: string;
  buyerId?: string;
  /** The email the order is placed with; default jane.smith@example.com. */
  email?: string;
  /** The store customer signed in at checkout (the quote's identity), so the store's order carries it. */
  customerId?: string;
}

export interface OrderGateway extends TestGateway {
  clock: { now: number };
  adapter: MemoryAdapter;
  keyring: Keyring;
  secret: GatewaySecret;
  tenant: Tenant;
  /** The store places the order; returns the record checkout would save (not saved yet). */
  placeInStore(order?: PlaceOrder): Promise<OrderRecord>;
  /** placeInStore, then the order record is saved as checkout saves it; returns the order id. */
  placeOrder(order?: PlaceOrder): Promise<string>;
  advance(ms: number): void;
}

export interface OrderGatewayOptions {
  store?: StateStore;
  platform?: PlatformServer;
  tenant?: Partial<TenantConfig>;
  keyring?: Keyring;
  clock?: { now: number };
  webhooks?: Partial<WebhookSettings>;
  /** Wraps the demo store as the tenant's adapter (a webhook verifier, failures); the simulator stays the store itself. */
  wrapAdapter?: (adapter: Adapter) => Adapter;
  /** OPERATOR_TOKEN: who may act in the operator console. */
  operators?: TestGatewayOptions['operators'];
  /** The environment the tenant's secret references resolve in (identity linking's client secrets). */
  assemblyEnv?: NodeJS.ProcessEnv;
}

const DEFAULT_LINES: Array<[string, number]> = [
  ['bouquet_roses', 3],
  ['pot_ceramic', 2],
  ['ebook_flower_care', 1],
];

let checkouts = 0;

export async function orderGateway(options: OrderGatewayOptions = {}): Promise<OrderGateway> {
  const clock = options.clock ?? { now: NOW };
  const now = () => clock.now;
  const ownStore = options.store ? undefined : new MemoryStore({ now });
  const store = options.store ?? ownStore!;
  const keyring = options.keyring ?? (await tenantKeyring());
  const secret = GatewaySecret.from(GATEWAY_SECRET);
  const tenantId = options.tenant?.id ?? 'shop';
  const dataDir = join(process.cwd(), 'config/demo');
  const adapter = await createMemoryAdapter({ dataDir, storefrontUrl: STOREFRONT, now, store, tenantId });
  const gw = await testGateway({
    now,
    store,
    secret,
    keyring,
    adapter: options.wrapAdapter ? options.wrapAdapter(adapter) : adapter,
    ...(options.platform && { platform: options.platform }),
    tenant: { simulation: { secret: { env: 'SIMULATION_SECRET' } }, ...options.tenant },
    assembly: {
      extras: { simulator: adapter },
      simulationSecret: SIMULATION_SECRET,
      identityDeps: { store, env: options.assemblyEnv ?? {} },
    },
    webhooks: { pollMs: 5, schedule: steadySchedule(), ...options.webhooks },
    ...(options.operators && { operators: options.operators }),
  });
  const tenant = gw.app.tenants.registry.tenants[0]!;
  const close = gw.close;

  async function placeInStore(order: PlaceOrder = {}): Promise<OrderRecord> {
    const lines = order.lines ?? DEFAULT_LINES;
    const checkoutId = order.checkoutId ?? `chk_${++checkouts}_${clock.now}`;
    const shipped = lines.flatMap(([variant], i) => (variant.startsWith('ebook') ? [] : [`l${i + 1}`]));
    const quote: QuoteRequest = {
      lines: lines.map(([variantId, quantity], i) => ({ lineId: `l${i + 1}`, variantId, quantity })),
      discountCodes: [],
      ...(order.customerId && { identity: { customerId: order.customerId } }),
      fulfillment: {
        multiGroup: false,
        methods: [
          { methodId: 'm1', type: 'shipping', lineIds: shipped, destination: { address: CHICAGO }, selectedOptions: { all: 'std-ship' } },
        ],
      },
    };
    const total = (await adapter.quote(quote)).totals.total;
    const placed = await adapter.placeOrder({
      reference: checkoutId,
      quote,
      expectedTotal: total,
      buyer: { email: order.email ?? 'jane.smith@example.com' },
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: `tx_${checkoutId}`, amount: total } },
    });
    if (placed.status !== 'placed') throw new Error(`the demo store did not place the order: ${JSON.stringify(placed)}`);
    return {
      orderId: placed.orderId,
      checkoutId,
      profileUrl: order.profileUrl ?? gw.platform.url(),
      ...(order.webhookUrl && { webhookUrl: order.webhookUrl }),
      ...(order.buyerId && { buyerId: order.buyerId }),
      placedAt: clock.now,
    };
  }

  async function placeOrder(order: PlaceOrder = {}): Promise<string> {
    const record = await placeInStore(order);
    await saveOrderRecord({ store, tenant }, record);
    return record.orderId;
  }

  return Object.assign(gw, {
    clock,
    adapter,
    keyring,
    secret,
    tenant,
    placeInStore,
    placeOrder,
    advance: (ms: number) => void (clock.now += ms),
    async close() {
      await close();
      await ownStore?.close();
    },
  });
}
