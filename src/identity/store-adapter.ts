/**
 * oidc-provider's storage adapter over the gateway's state store (memory or Redis), so every
 * replica shares grants, codes, tokens, sessions and interactions. Keys are
 * `oidc:<tenant>:<model>:<id>`; two small indexes (by uid, by grant) answer findByUid and
 * revokeByGrantId, which revoking a refresh token relies on to kill its access tokens.
 */
import type { Adapter, AdapterConstructor, AdapterPayload } from 'oidc-provider';
import type { StateStore } from '../state/store.js';

/** Models oidc-provider saves without an expiry (none in this configuration) still get one. */
const DEFAULT_TTL_MS = 14 * 24 * 3600 * 1000;
const CAS_ATTEMPTS = 20;

/** Runs `change` on the key's value until the compare-and-set lands (concurrent writers retry). */
async function update<T>(store: StateStore, key: string, ttlMs: number, change: (value: T | undefined) => T): Promise<void> {
  for (let i = 0; i < CAS_ATTEMPTS; i++) {
    const current = await store.get<T>(key);
    if ((await store.compareAndSet(key, current?.version ?? 0, change(current?.value), ttlMs)) !== null) return;
  }
  throw new Error(`could not update ${key}: too many concurrent writers`);
}

export function storeAdapter(store: StateStore, namespace: string, now: () => number): AdapterConstructor {
  const uidKey = (uid: string) => `${namespace}:uid:${uid}`;
  const grantKey = (grantId: string) => `${namespace}:grant:${grantId}`;
  /** Until the payload's own expiry when it has one. */
  const ttlOf = (payload: AdapterPayload, expiresIn?: number) =>
    expiresIn !== undefined
      ? Math.max(1, expiresIn * 1000)
      : payload.exp !== undefined
        ? Math.max(1, payload.exp * 1000 - now())
        : DEFAULT_TTL_MS;

  return class StoreAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `${namespace}:${this.model}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const ttl = ttlOf(payload, expiresIn);
      const key = this.key(id);
      await store.set(key, payload, ttl);
      if (payload.uid) await store.set(uidKey(payload.uid), id, ttl);
      if (payload.grantId) {
        // The index lives as long as its longest member.
        await update<string[]>(store, grantKey(payload.grantId), Math.max(ttl, DEFAULT_TTL_MS), (keys = []) =>
          keys.includes(key) ? keys : [...keys, key],
        );
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return (await store.get<AdapterPayload>(this.key(id)))?.value;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = (await store.get<string>(uidKey(uid)))?.value;
      return id === undefined ? undefined : this.find(id);
    }

    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined); // the device flow is off
    }

    async consume(id: string): Promise<void> {
      const key = this.key(id);
      const current = await store.get<AdapterPayload>(key);
      if (!current) return;
      const consumed = { ...current.value, consumed: Math.floor(now() / 1000) };
      await store.compareAndSet(key, current.version, consumed, ttlOf(current.value));
    }

    async destroy(id: string): Promise<void> {
      await store.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const keys = (await store.get<string[]>(grantKey(grantId)))?.value ?? [];
      for (const key of keys) await store.delete(key);
      await store.delete(grantKey(grantId));
    }
  };
}
