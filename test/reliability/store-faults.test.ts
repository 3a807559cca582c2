/**
 * Redis killed under load and brought back. Two gateway replicas share a throwaway Redis that
 * persists every write before answering (append-only file, fsync always). Agents write their
 * resources (every kind the table has) through both replicas; Redis is killed with SIGKILL in
 * the middle. While it is down writes fail closed (503 store_unavailable with Retry-After),
 * /readyz says not ready, and what needs no store (the catalog) is still served. Once it is
 * back on the same files, both replicas recover without a restart and every acknowledged write
 * is there: resources hold their last acknowledged content, idempotency records replay.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { operations } from '../../src/pipeline/table.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { describeWhenAvailable } from '../helpers/redis.js';
import { redisBinariesProblem, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { problemWith, send } from './helpers/operation-client.js';
import { resourceKinds } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';
import { ResourceAgent } from './helpers/workload.js';

const AGENTS_PER_KIND = 6;
/** Writes per agent: before the kill, around it, and while Redis is down. */
const WARM_WRITES = 3;
const KILL_WRITES = 8;
const DOWN_WRITES = 3;
const STORE_DOWN = ['store_unavailable'];

const kinds = resourceKinds(operations).filter((kind) => kind.update);
const tally = new Tally('store faults');

describeWhenAvailable('Redis killed under load and restarted', redisBinariesProblem(), () => {
  let redis: RedisServer;
  let platform: PlatformServer;
  const replicas: ReliabilityGateway[] = [];
  const agents: ResourceAgent[] = [];
  const search = operations.find((op) => op.name === 'search_catalog');

  beforeAll(async () => {
    redis = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'always']);
    platform = await startPlatform();
    const prefix = `rel-${randomUUID()}:`;
    const secret = GatewaySecret.from(randomUUID().repeat(2));
    for (let i = 0; i < 2; i++) {
      const store = await RedisStore.connect(redis.url, { keyPrefix: prefix, commandTimeoutMs: 500 });
      replicas.push(await reliabilityGateway({ store, platform, gateway: { secret } }));
    }
    for (const kind of kinds) {
      for (let a = 0; a < AGENTS_PER_KIND; a++)
        agents.push(new ResourceAgent(replicas[0]!.agent(`${kind.capability}-${a}`), kind, replicas, tally, STORE_DOWN));
    }
  });
  afterAll(async () => {
    tally.print();
    for (const replica of replicas) {
      await replica.close();
      await replica.store.close();
    }
    await platform?.close();
    await redis?.remove();
  });

  const ready = async (replica: ReliabilityGateway) =>
    (await replica.app.inject({ method: 'GET', url: '/readyz' })).json<{ ready: boolean }>();

  it('fails closed while Redis is down, recovers without a restart, and loses no acknowledged write', { timeout: 60_000 }, async () => {
    // Every agent has a resource, and a few acknowledged writes to it, through both replicas.
    await Promise.all(agents.map((agent, i) => agent.create(i % 2)));
    for (let w = 0; w < WARM_WRITES; w++) {
      const answers = await Promise.all(agents.map((agent, i) => agent.update((i + w) % 2)));
      for (const answer of answers) expect(answer.kind, answer.text).toBe('success');
    }

    // Kill Redis while every agent is writing; each carries on, one write after the other.
    let started = 0;
    let killed!: () => void;
    const kill = new Promise<void>((resolve) => (killed = resolve));
    const writing = Promise.all(
      agents.map(async (agent, i) => {
        for (let w = 0; w < KILL_WRITES; w++) {
          if (++started === agents.length * 4) void redis.kill().then(killed);
          await agent.update((i + w) % 2);
          if (w % 3 === 2) await agent.create((i + w + 1) % 2);
        }
      }),
    );
    await Promise.all([writing, kill]);
    tally.count('redis kills');

    // Down: writes and store reads fail closed with 503, the catalog is still served, nobody is ready.
    for (const [r, replica] of replicas.entries()) {
      expect(await ready(replica), `replica ${r}`).toMatchObject({ ready: false });
    }
    for (const [i, agent] of agents.entries()) {
      for (let w = 0; w < DOWN_WRITES; w++) {
        const answer = await agent.update((i + w) % 2);
        expect(answer.status, answer.text).toBe(503);
        expect(answer.code).toBe('store_unavailable');
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      expect((await agent.read(i % 2)).code).toBe('store_unavailable');
      expect((await agent.create(i % 2)).code).toBe('store_unavailable');
    }
    if (search) {
      for (const replica of replicas) {
        const answer = await send(replica, { op: search, transport: 'rest', profile: agents[0]!.profile, payload: { query: 'roses' } });
        tally.record(answer);
        expect(problemWith(answer)).toBeUndefined();
        expect(answer.kind, answer.text).toBe('success');
      }
    }

    // Back on the same files and port: both replicas recover by themselves.
    await redis.start();
    for (const replica of replicas)
      await vi.waitFor(async () => expect(await ready(replica)).toMatchObject({ ready: true }), { timeout: 15_000, interval: 100 });

    // Nothing acknowledged was lost, whichever replica reads it; idempotency records replay.
    const lost: string[] = [];
    for (const [i, agent] of agents.entries()) {
      for (const replica of [0, 1]) {
        const problem = await agent.lostWrite((i + replica) % 2);
        if (problem) lost.push(problem);
      }
      const forgotten = await agent.lostCreate(i % 2);
      if (forgotten) lost.push(forgotten);
    }
    tally.set(
      'acknowledged creates',
      agents.reduce((n, a) => n + a.creates.length, 0),
    );
    tally.set('writes lost', lost.length);
    expect(lost).toEqual([]);

    // And they take writes again.
    const after = await Promise.all(agents.map((agent, i) => agent.update(i % 2)));
    for (const answer of after) expect(answer.kind, answer.text).toBe('success');
    for (const [i, agent] of agents.entries()) expect(await agent.lostWrite((i + 1) % 2)).toBeUndefined();
  });
});
