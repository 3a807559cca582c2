import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisStore } from '../../src/state/redis-store.js';
import { describeWhenAvailable } from '../helpers/redis.js';
import { redisBinariesProblem, startRedisCluster, type RedisCluster } from '../helpers/redis-server.js';
import { randomPrefix, serverKeyTime, storeContract } from './store-contract.js';

describeWhenAvailable('RedisStore on a three-node Redis Cluster', redisBinariesProblem(), () => {
  let cluster: RedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster();
  });
  afterAll(async () => {
    await cluster?.remove();
  });

  storeContract(() => {
    const keyPrefix = randomPrefix();
    return { open: (now) => RedisStore.connect(cluster.url, { keyPrefix, now }) };
  }, serverKeyTime);

  it('finds the whole cluster from one start-up node given as an option', async () => {
    const store = await RedisStore.connect('redis+cluster://', {
      keyPrefix: randomPrefix(),
      clusterNodes: [{ host: '127.0.0.1', port: cluster.ports[1]! }],
    });
    try {
      for (let i = 0; i < 10; i += 1) expect(await store.set(`k${i}`, i, 60_000)).toBe(1);
      expect(await store.get('k7')).toEqual({ value: 7, version: 1 });
    } finally {
      await store.close();
    }
  });

  it('spreads records over the nodes and keeps each queue on one node', async () => {
    const keyPrefix = randomPrefix();
    const store = await RedisStore.connect(cluster.url, { keyPrefix });
    const nodes = cluster.ports.map((port) => new Redis({ host: '127.0.0.1', port }));
    try {
      for (let i = 0; i < 30; i += 1) await store.set(`cart:${i}`, i, 60_000);
      const queue = store.queue<number>('outbox');
      for (let i = 0; i < 10; i += 1) await queue.enqueue({ id: `e${i}`, group: `order-${i % 3}`, payload: i });
      await queue.deadLetter((await queue.claim(1, 30_000))[0]!, 'test');

      const keysPerNode = await Promise.all(nodes.map((node) => node.keys(`${keyPrefix}*`)));
      const recordsPerNode = keysPerNode.map((keys) => keys.filter((k) => k.startsWith(`${keyPrefix}k:`)).length);
      expect(recordsPerNode.reduce((a, b) => a + b)).toBe(30);
      expect(recordsPerNode.filter((n) => n > 0).length).toBeGreaterThan(1);
      const queueNodes = keysPerNode.map((keys) => keys.some((k) => k.includes('{q:outbox}')));
      expect(queueNodes.filter(Boolean)).toHaveLength(1);
      expect(await queue.depth()).toEqual({ queued: 9, dead: 1 });
    } finally {
      await store.close();
      nodes.forEach((node) => node.disconnect());
    }
  });
});
