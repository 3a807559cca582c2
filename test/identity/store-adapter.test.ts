/**
 * oidc-provider's storage over the gateway's state store, in memory and in Redis: what one
 * replica writes another finds; consumed codes stay consumed; revoking a grant removes every
 * token issued under it; entries expire with the artifact; tokens are kept only as hashes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAdapter } from '../../src/identity/store-adapter.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { RedisStore } from '../../src/state/redis-store.js';
import type { StateStore } from '../../src/state/store.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';

interface Replicas {
  a: StateStore;
  b: StateStore;
  /** Memory: moves the store's clock past `ms`; Redis: the key's remaining TTL must be within `ms` (no waiting). */
  expireAfter(key: string, ms: number): Promise<void>;
  close(): Promise<void>;
}

function suite(open: () => Promise<Replicas>) {
  let stores: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => (stores = await open()));
  afterAll(() => stores.close());
  const adapters = () => {
    const ns = `oidc:t-${randomUUID()}`;
    return { ns, one: storeAdapter(stores.a, ns, Date.now), two: storeAdapter(stores.b, ns, Date.now) };
  };

  it('finds by id and by uid what the other replica wrote, per model', async () => {
    const { one, two } = adapters();
    await new one('Session').upsert('s1', { uid: 'u1', accountId: 'cust_1' }, 60);
    await expect(new two('Session').find('s1')).resolves.toEqual({ uid: 'u1', accountId: 'cust_1' });
    await expect(new two('Session').findByUid('u1')).resolves.toEqual({ uid: 'u1', accountId: 'cust_1' });
    await expect(new two('Interaction').find('s1')).resolves.toBeUndefined();
    await expect(new two('Session').findByUid('nope')).resolves.toBeUndefined();
  });

  it('consume marks the code consumed for every replica; destroy removes it', async () => {
    const { one, two } = adapters();
    await new one('AuthorizationCode').upsert('c1', { grantId: 'g1', clientId: 'agent' }, 60);
    await new two('AuthorizationCode').consume('c1');
    expect((await new one('AuthorizationCode').find('c1'))?.consumed).toEqual(expect.any(Number));
    await new one('AuthorizationCode').destroy('c1');
    await expect(new two('AuthorizationCode').find('c1')).resolves.toBeUndefined();
  });

  it('revokeByGrantId removes every artifact of the grant and nothing else', async () => {
    const { one, two } = adapters();
    await new one('RefreshToken').upsert('r1', { grantId: 'g1' }, 3600);
    await new two('AccessToken').upsert('a1', { grantId: 'g1' }, 600);
    await new one('AccessToken').upsert('a2', { grantId: 'g2' }, 600);
    await new two('RefreshToken').revokeByGrantId('g1');
    await expect(new one('RefreshToken').find('r1')).resolves.toBeUndefined();
    await expect(new one('AccessToken').find('a1')).resolves.toBeUndefined();
    await expect(new one('AccessToken').find('a2')).resolves.toEqual({ grantId: 'g2' });
  });

  it('keeps tokens under a hash: neither a key nor a stored value holds the token, which still finds it', async () => {
    const { ns, one, two } = adapters();
    const written: string[] = [];
    const spy = (name: 'set' | 'compareAndSet') => {
      const original = stores.a[name].bind(stores.a) as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => {
        written.push(JSON.stringify(args));
        return original(...args);
      };
    };
    const recording = storeAdapter(
      Object.assign(Object.create(stores.a) as StateStore, { set: spy('set'), compareAndSet: spy('compareAndSet') }),
      ns,
      Date.now,
    );
    const access = `AT_${randomUUID()}`;
    const refresh = `RT_${randomUUID()}`;
    const session = `SESS_${randomUUID()}`;
    await new recording('AccessToken').upsert(access, { jti: access, grantId: 'g1', accountId: 'cust_1' }, 600);
    await new recording('RefreshToken').upsert(refresh, { jti: refresh, grantId: 'g1' }, 3600);
    await new recording('Session').upsert(session, { jti: session, uid: 'su1', accountId: 'cust_1' }, 600);
    for (const secret of [access, refresh, session]) expect(written.join('\n')).not.toContain(secret);
    await expect(new two('AccessToken').find(access)).resolves.toEqual({ jti: access, grantId: 'g1', accountId: 'cust_1' });
    await expect(new two('RefreshToken').find(refresh)).resolves.toEqual({ jti: refresh, grantId: 'g1' });
    await expect(new two('Session').find(session)).resolves.toEqual({ jti: session, uid: 'su1', accountId: 'cust_1' });
    // By uid, the session's id is not known (nor kept); what oidc-provider checks there is the account.
    await expect(new two('Session').findByUid('su1')).resolves.toEqual({ uid: 'su1', accountId: 'cust_1' });
    await new two('RefreshToken').revokeByGrantId('g1');
    await expect(new one('AccessToken').find(access)).resolves.toBeUndefined();
  });

  it('an artifact expires with its expiresIn', async () => {
    const { ns, one } = adapters();
    await new one('AccessToken').upsert('short', {}, 1);
    await stores.expireAfter(`${ns}:AccessToken:${createHash('sha256').update('short').digest('base64url')}`, 1000);
    await expect(new one('AccessToken').find('short')).resolves.toBeUndefined();
  });
}

describe('oidc-provider storage on the memory store', () => {
  suite(async () => {
    const clock = { now: Date.parse('2026-05-01T12:00:00Z') };
    const store = new MemoryStore({ now: () => clock.now });
    const expireAfter = (_key: string, ms: number) => Promise.resolve(void (clock.now += ms + 1));
    return { a: store, b: store, expireAfter, close: () => store.close() };
  });
});

describeWithRedis('oidc-provider storage on Redis (two replicas)', () => {
  const prefix = `test-oidc-${randomUUID()}:`;
  suite(async () => {
    const a = await RedisStore.connect(REDIS_URL, { keyPrefix: prefix });
    const b = await RedisStore.connect(REDIS_URL, { keyPrefix: prefix });
    return {
      a,
      b,
      // Redis keeps its own time: the key carries the artifact's TTL; it is then removed as Redis would.
      async expireAfter(key, ms) {
        const pttl = await a.connection.client.pttl(`${prefix}k:${key}`);
        expect(pttl).toBeGreaterThan(0);
        expect(pttl).toBeLessThanOrEqual(ms);
        await a.connection.client.pexpire(`${prefix}k:${key}`, 1, 'XX');
        await expect.poll(() => a.connection.client.exists(`${prefix}k:${key}`)).toBe(0);
      },
      async close() {
        await a.close();
        await b.close();
        await deleteKeys(REDIS_URL, prefix);
      },
    };
  });
});
