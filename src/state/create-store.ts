/** The state store named by the gateway's STORE setting: `memory`, a Redis URL or `redis+cluster://...`. */
import { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
import { RedisStore, type RedisStoreOptions } from './redis-store.js';
import type { StateStore } from './store.js';

export async function createStore(setting: string, options: MemoryStoreOptions & RedisStoreOptions = {}): Promise<StateStore> {
  return setting === 'memory' ? new MemoryStore(options) : RedisStore.connect(setting, options);
}

/** The store the gateway's settings name (STORE, STORE_PREFIX): what the gateway and its tools open. */
export function openStore(settings: { store: string; storePrefix: string }): Promise<StateStore> {
  return createStore(settings.store, { keyPrefix: settings.storePrefix });
}
