/**
 * A signature's nonce is remembered in the state store: two replicas on one Redis accept a signature
 * with a nonce once between them, and the memory of it ends when the signature would expire anyway.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { openStore } from '../../src/state/create-store.js';
import type { StateStore } from '../../src/state/store.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { signCovering } from './helpers/craft.js';
import { secureGateway, type SecureGateway } from './helpers/secure-gateway.js';

describeWithRedis('signature nonces across replicas', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const stores: StateStore[] = [];
  let first: SecureGateway;
  let second: SecureGateway;
  const clock = Date.now();

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) stores.push(await openStore(settingsFromEnv({ STORE: REDIS_URL, STORE_PREFIX: prefix })));
    first = await secureGateway({ store: stores[0]!, now: () => clock });
    second = await secureGateway({ store: stores[1]!, now: () => clock, replicaOf: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    for (const store of stores) await store.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  const signed = (nonce: string, expiresIn?: number) =>
    signCovering(first.request({ method: 'GET', path: '/whoami' }), ['@method', '@authority', '@path', 'proto-agent'], first.platformKey, {
      created: Math.floor(clock / 1000),
      ...(expiresIn !== undefined && { expires: Math.floor(clock / 1000) + expiresIn }),
      nonce,
    });

  it('a nonce accepted by one replica is a replay on the other', async () => {
    const request = signed(`n-${randomUUID()}`);
    expect((await first.send(request)).statusCode).toBe(200);
    const replay = await second.send(request);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'signature_invalid', content: expect.stringContaining('nonce') });
  });

  it('remembers a nonce as long as the signature could be accepted, and no longer', async () => {
    const nonce = `n-${randomUUID()}`;
    expect((await first.send(signed(nonce, 30))).statusCode).toBe(200);
    const scan = await stores[0]!.connection!.client.keys(`${prefix}*signature-nonce:*`);
    expect(scan).toHaveLength(2); // this nonce and the previous test's
    const [short, long] = (await Promise.all(scan.map(async (key) => stores[0]!.connection!.client.pttl(key)))).sort((a, b) => a - b);
    // expires (30 s) + clock skew (60 s) for this one; max age (300 s) + skew for the other.
    expect(short).toBeGreaterThan(85_000);
    expect(short).toBeLessThanOrEqual(90_000);
    expect(long).toBeGreaterThan(90_000);
    expect(long).toBeLessThanOrEqual(360_000);
    for (const key of scan) expect(key).not.toContain(nonce);
  });
});
