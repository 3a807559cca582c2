/**
 * oidc-provider's storage adapter over the gateway's state store (memory or Redis), so every
 * replica shares grants, codes, tokens, sessions and interactions. Keys are
 * `oidc:<tenant>:<model>:<SHA-256 of the id>`; two small indexes (by uid, by grant) answer
 * findByUid and revokeByGrantId, which revoking a refresh token relies on to kill its access tokens.
 * An opaque token's id is the token itself (oidc-provider finds an access token, refresh token,
 * code or session cookie by the value presented), so it is kept as API keys are, hashed: the key
 * is its digest and the stored payload leaves out its `jti` (the id again), which `find` puts
 * back from the value it was asked for. Nothing in the store can be presented as a token.
 */
import { createHash } from 'node:crypto';
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

const digest = (id: string) => createHash('sha256').update(id).digest('base64url');

/** `jti: null` in a stored payload: the jti was the id, left out. */
function withoutId(id: string, payload: AdapterPayload): AdapterPayload {
  return payload.jti === id ? { ...payload, jti: null as unknown as string } : payload;
}

function withId(id: string | undefined, payload: AdapterPayload): AdapterPayload {
  if (payload.jti !== null) return payload;
  const { jti: _jti, ...rest } = payload;
  return id === undefined ? rest : { ...rest, jti: id };
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
      return `${namespace}:${this.model}:${digest(id)}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const ttl = ttlOf(payload, expiresIn);
      const key = this.key(id);
      await store.set(key, withoutId(id, payload), ttl);
      // The index names the record, not its id: a session's id is its cookie.
      if (payload.uid) await store.set(uidKey(payload.uid), key, ttl);
      if (payload.grantId) {
        // The index lives as long as its longest member.
        await update<string[]>(store, grantKey(payload.grantId), Math.max(ttl, DEFAULT_TTL_MS), (keys = []) =>
          keys.includes(key) ? keys : [...keys, key],
        );
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const stored = (await store.get<AdapterPayload>(this.key(id)))?.value;
      return stored && withId(id, stored);
    }

    /** Without the session's id, which is not kept: oidc-provider reads only the account and grants of a session found so. */
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const key = (await store.get<string>(uidKey(uid)))?.value;
      const stored = key === undefined ? undefined : (await store.get<AdapterPayload>(key))?.value;
      return stored && withId(undefined, stored);
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
