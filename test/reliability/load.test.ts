/**
 * Load with correctness: many concurrent agents run a scripted mixed workload (catalog reads,
 * creates, full replacements, reads through the other replica, duplicate creates sent to both
 * replicas at once) against two gateway replicas sharing Redis. No answer is a 5xx; every write
 * is visible through the other replica as soon as it is acknowledged; a duplicate sent to both
 * replicas creates one resource; afterwards every resource holds its last acknowledged write and
 * every acknowledged create replays from its idempotency record.
 *
 * `npm test` runs a few hundred operations; `npm run load` (LOAD_AGENTS, LOAD_STEPS) many more.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { operations } from '../../src/operations/table.js';
import { defaultProfileFetcherOptions, ProfileFetcher } from '../../src/protocol/profile-fetcher.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { demoGateway, type DemoGateway } from './helpers/demo-gateway.js';
import { fuzz } from './helpers/fuzz-settings.js';
import { problemWith, send, type Answer } from './helpers/operation-client.js';
import { goodPayload, resourceKinds } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';
import { linesFor, ResourceAgent } from './helpers/workload.js';

const AGENTS = Number(process.env.LOAD_AGENTS ?? 16);
const STEPS = Number(process.env.LOAD_STEPS ?? 12);

const kinds = resourceKinds(operations).filter((kind) => kind.update);
/** Operations that read without owning anything (the catalog): any agent may call them any time. */
const reads = operations.filter((op) => !op.idempotency && !op.mcp.id);
type Step = 'read_catalog' | 'update' | 'read_other_replica' | 'duplicate_create' | 'mcp_update';
const STEP: fc.Arbitrary<Step> = fc.constantFrom('read_catalog', 'read_catalog', 'update', 'update', 'read_other_replica', 'duplicate_create', 'mcp_update');

const tally = new Tally('load');

describeWithRedis('mixed workload against two replicas on Redis', () => {
  const prefix = `rel-load-${randomUUID()}:`;
  let platform: PlatformServer;
  const replicas: DemoGateway[] = [];

  beforeAll(async () => {
    platform = await startPlatform();
    const secret = GatewaySecret.from(randomUUID().repeat(2));
    for (let i = 0; i < 2; i++) {
      // The platform answering profile fetches shares this process's CPU with both replicas and every agent, so under
      // full load its answers queue behind the gateway's work: the fetch budget is the worst case here, not 3 s.
      const profiles = new ProfileFetcher({ ...defaultProfileFetcherOptions, timeoutMs: 30_000 });
      replicas.push(await demoGateway({ store: await RedisStore.connect(REDIS_URL, { keyPrefix: prefix }), platform, secret, profiles }));
    }
  });
  afterAll(async () => {
    tally.print();
    for (const replica of replicas) {
      await replica.close();
      await replica.store.close();
    }
    await platform?.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  const checked = (answer: Answer): Answer => {
    tally.record(answer);
    const problem = problemWith(answer);
    if (problem) throw new Error(problem);
    return answer;
  };

  it('no 5xx, read-your-writes across replicas, one resource per duplicate, no acknowledged write lost', { timeout: 120_000 }, async () => {
    const apps = replicas.map((r) => r.app);
    const agents = kinds.flatMap((kind) => Array.from({ length: AGENTS }, (_, a) => new ResourceAgent(replicas[0]!.agent(`load-${kind.capability}-${a}`), kind, apps, tally)));
    const scripts = agents.map((_, i) => fc.sample(fc.array(STEP, { minLength: STEPS, maxLength: STEPS }), { seed: fuzz.seed + i, numRuns: 1 })[0]!);
    let duplicates = 0;

    await Promise.all(
      agents.map(async (agent, i) => {
        const created = await agent.create(i % 2);
        expect(created.kind, created.text).toBe('success');
        for (const [s, step] of scripts[i]!.entries()) {
          const here = (i + s) % 2;
          const there = 1 - here;
          switch (step) {
            case 'read_catalog': {
              const op = reads[(i + s) % reads.length]!;
              expect(checked(await send(apps[here]!, { op, transport: s % 2 ? 'mcp' : 'rest', profile: agent.profile, payload: goodPayload(op) })).kind).toBe('success');
              break;
            }
            case 'update':
            case 'mcp_update': {
              const updated = await agent.update(here, step === 'mcp_update' ? 'mcp' : 'rest');
              expect(updated.kind, updated.text).toBe('success');
              expect(await agent.lostWrite(there)).toBeUndefined();
              break;
            }
            case 'read_other_replica':
              expect(await agent.lostWrite(there)).toBeUndefined();
              break;
            case 'duplicate_create': {
              // One request, retried by the platform at the other replica before the first answered.
              const call = { op: agent.kind.create, transport: 'rest' as const, profile: agent.profile, key: randomUUID(), payload: { line_items: linesFor(s) } };
              const [a, b] = await Promise.all(apps.map((app) => send(app, call)));
              checked(a!);
              checked(b!);
              expect(a!.body.id).toBe(b!.body.id);
              expect([a!.replayed, b!.replayed].filter(Boolean)).toHaveLength(1);
              duplicates++;
              break;
            }
          }
        }
      }),
    );

    const lost: string[] = [];
    for (const [i, agent] of agents.entries()) {
      for (const problem of [await agent.lostWrite(i % 2), await agent.lostWrite(1 - (i % 2)), await agent.lostCreate(1 - (i % 2))]) if (problem) lost.push(problem);
    }
    tally.set('agents', agents.length);
    tally.set('duplicate creates', duplicates);
    tally.set('writes lost', lost.length);
    expect(lost).toEqual([]);
    expect(tally.fiveHundreds).toBe(0);
  });
});
