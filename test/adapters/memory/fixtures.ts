/**
 * Shared set-up of the demo store tests: the shipped config/demo files, a fixed clock, and a
 * Map-based state store with the same copy-in/copy-out and versioning semantics as the real ones.
 */
import { join } from 'node:path';
import type { OrderLink, QuoteRequest } from '../../../adapters/contract.js';
import { createMemoryAdapter, type MemoryAdapter } from '../../../adapters/memory/index.js';
import type { DurableQueue, StateStore, Versioned } from '../../../src/state/store.js';

/** 2026-03-10T12:00:00Z: after SPRING2025 ended, before the peonies ship. */
export const NOW = Date.parse('2026-03-10T12:00:00Z');
export const DATA_DIR = join(process.cwd(), 'config/demo');
export const STOREFRONT = 'https://flowers.example/store';

export class MapStore implements StateStore {
  readonly entries = new Map<string, Versioned<string>>();

  async get<T>(key: string): Promise<Versioned<T> | null> {
    // Yield like a network store, so concurrent callers interleave.
    await Promise.resolve();
    const e = this.entries.get(key);
    return e ? { value: JSON.parse(e.value) as T, version: e.version } : null;
  }
  async getText(key: string): Promise<Versioned<string> | null> {
    await Promise.resolve();
    return this.entries.get(key) ?? null;
  }
  async set<T>(key: string, value: T): Promise<number> {
    return this.setText(key, JSON.stringify(value));
  }
  async setText(key: string, text: string): Promise<number> {
    await Promise.resolve();
    const version = (this.entries.get(key)?.version ?? 0) + 1;
    this.entries.set(key, { value: text, version });
    return version;
  }
  async setIfAbsent<T>(key: string, value: T): Promise<boolean> {
    await Promise.resolve();
    if (this.entries.has(key)) return false;
    this.entries.set(key, { value: JSON.stringify(value), version: 1 });
    return true;
  }
  async compareAndSet<T>(key: string, expectedVersion: number, value: T): Promise<number | null> {
    await Promise.resolve();
    if ((this.entries.get(key)?.version ?? 0) !== expectedVersion) return null;
    this.entries.set(key, { value: JSON.stringify(value), version: expectedVersion + 1 });
    return expectedVersion + 1;
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
  queue<T>(): DurableQueue<T> {
    throw new Error('not used by the demo store');
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

export interface DemoStore {
  adapter: MemoryAdapter;
  store: MapStore;
  clock: { now: number };
}

export interface DemoStoreOptions {
  dataDir?: string;
  store?: MapStore;
  tenantId?: string;
  webhookSecret?: string;
  /** The tenant setting `prices_include_tax`: catalog and shipping prices contain the tax. */
  pricesIncludeTax?: boolean;
  /** The tenant setting `order_links`. */
  orderLinks?: OrderLink[];
}

export async function demoStore(options: DemoStoreOptions = {}): Promise<DemoStore> {
  const store = options.store ?? new MapStore();
  const clock = { now: NOW };
  const adapter = await createMemoryAdapter({
    dataDir: options.dataDir ?? DATA_DIR,
    storefrontUrl: STOREFRONT,
    now: () => clock.now,
    store,
    tenantId: options.tenantId ?? 'demo',
    ...(options.webhookSecret && { webhookSecret: options.webhookSecret }),
    ...(options.pricesIncludeTax && { pricesIncludeTax: true }),
    ...(options.orderLinks && { orderLinks: options.orderLinks }),
  });
  return { adapter, store, clock };
}

/** A quote request with defaults: lines as [variantId, quantity], ids l1, l2, ... */
export function request(lines: Array<[string, number]>, extra: Partial<QuoteRequest> = {}): QuoteRequest {
  return { lines: lines.map(([variantId, quantity], i) => ({ lineId: `l${i + 1}`, variantId, quantity })), discountCodes: [], ...extra };
}

export const CHICAGO = { streetAddress: '123 Main St', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60601' };
export const NEW_YORK = { streetAddress: '456 Oak Ave', locality: 'New York', region: 'NY', country: 'US', postalCode: '10012' };
export const TORONTO = { streetAddress: '1 Front St W', locality: 'Toronto', region: 'ON', country: 'CA', postalCode: 'M5J 2X5' };
export const PARIS = { streetAddress: '1 Rue de Rivoli', locality: 'Paris', country: 'FR', postalCode: '75001' };

/** One shipping method over the given lines to an address, with an optional selection per group. */
export function shipTo(
  address: object,
  lineIds: string[],
  selected?: Record<string, string>,
  multiGroup = false,
): QuoteRequest['fulfillment'] {
  return {
    multiGroup,
    methods: [{ methodId: 'm1', type: 'shipping', lineIds, destination: { address }, ...(selected && { selectedOptions: selected }) }],
  };
}
