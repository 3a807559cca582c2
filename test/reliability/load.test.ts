/**
 * Load with correctness: many concurrent agents run a scripted mixed workload against two
 * gateway replicas sharing Redis: catalog reads, creates and full replacements of every resource
 * the table lets callers own (carts, checkouts), reads through the other replica, duplicate
 * creates sent to both replicas at once, and checkouts walked to completion, their complete sent
 * to both replicas at once or raced by a second complete with another key.
 *
 * No answer is a 5xx; every write is visible through the other replica once acknowledged; a
 * duplicate creates one resource; afterwards every resource holds its last acknowledged write,
 * every acknowledged create replays, every completed checkout has exactly one order (in the
 * store, in the checkout, readable by its owner), and every order's webhook was delivered.
 *
 * `npm test` runs a few hundred operations; `npm run load` (LOAD_AGENTS, LOAD_STEPS) many more.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { operations } from '../../src/pipeline/table.js';
import { defaultProfileFetcherOptions, ProfileFetcher } from '../../src/protocol/profile-fetcher.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { completeCheckout, readyCheckout } from './helpers/checkout-flow.js';
import { reliabilityGateway, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { fuzz } from './helpers/fuzz-settings.js';
import { problemWith, send, type Answer } from './helpers/operation-client.js';
import { goodPayload, resourceKinds } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';
import { linesFor, ResourceAgent } from './helpers/workload.js';

const AGENTS = Number(process.env.LOAD_AGENTS ?? 12);
const STEPS = Number(process.env.LOAD_STEPS ?? 10);

const kinds = resourceKinds(operations).filter((kind) => kind.create && kind.update);
/** Operations that read without owning anything (the catalog): any agent may call them any time. */
const reads = operations.filter((op) => !op.idempotency && !op.mcp.id);
const readCheckout = operations.find((op) => op.name === 'get_checkout')!;
const readOrder = operations.find((op) => op.name === 'get_order')!;

type Step = 'read_catalog' | 'update' | 'mcp_update' | 'read_other_replica' | 'duplicate_create' | 'checkout' | 'racing_checkout';
const STEP: fc.Arbitrary<Step> = fc.constantFrom(
  'read_catalog',
  'read_catalog',
  'update',
  'update',
  'mcp_update',
  'read_other_replica',
  'duplicate_create',
  'checkout',
  'racing_checkout',
);

const tally = new Tally('load');

describeWithRedis('mixed workload against two replicas on Redis', () => {
  const prefix = `rel-load-${randomUUID()}:`;
  let platform: PlatformServer;
  let receiver: WebhookReceiver;
  const replicas: ReliabilityGateway[] = [];

  beforeAll(async () => {
    platform = await startPlatform();
    receiver = await startReceiver();
    const secret = GatewaySecret.from(randomUUID().repeat(2));
    const keyring = await tenantKeyring();
    for (let i = 0; i < 2; i++) {
      // The platform answering profile fetches shares this process's CPU with both replicas and every agent, so under
      // full load its answers queue behind the gateway's work: the fetch budget is the worst case here, not 3 s.
      const profiles = new ProfileFetcher({ ...defaultProfileFetcherOptions, timeoutMs: 30_000 });
      const store = await RedisStore.connect(REDIS_URL, { keyPrefix: prefix });
      replicas.push(await reliabilityGateway({ store, platform, gateway: { secret, profiles, keyring, webhooks: { pollMs: 20 } } }));
    }
  });
  afterAll(async () => {
    tally.print();
    for (const replica of replicas) {
      await replica.close();
      await replica.store.close();
    }
    await receiver?.close();
    await platform?.close();
    await deleteKeys(REDIS_URL, prefix);
  });

  const checked = (answer: Answer): Answer => {
    tally.record(answer);
    const problem = problemWith(answer);
    if (problem) throw new Error(problem);
    return answer;
  };

  it(
    'no 5xx, read-your-writes across replicas, one resource per duplicate, one order per completed checkout, every webhook delivered',
    { timeout: 120_000 },
    async () => {
      const agents = kinds.flatMap((kind) =>
        Array.from({ length: AGENTS }, (_, a) => {
          const name = `load-${kind.capability}-${a}`;
          return new ResourceAgent(replicas[0]!.agent(name, { webhookUrl: receiver.url(`/hooks/${name}`) }), kind, replicas, tally);
        }),
      );
      const scripts = agents.map(
        (_, i) => fc.sample(fc.array(STEP, { minLength: STEPS, maxLength: STEPS }), { seed: fuzz.seed + i, numRuns: 1 })[0]!,
      );
      /** Completed checkout id -> its order id, with the agent that owns it. */
      const orders = new Map<string, { orderId: string; profile: string }>();
      let duplicates = 0;

      /** A checkout walked to ready on one replica, completed by `completes` (one per replica, keys chosen by the step). */
      async function checkout(agent: ResourceAgent, here: number, keys: [string, string]): Promise<void> {
        const id = await readyCheckout(replicas[here]!, agent.profile, linesFor(agent.writes++));
        const answers = (await Promise.all(keys.map((key, r) => completeCheckout(replicas[(here + r) % 2]!, agent.profile, id, key)))).map(
          checked,
        );
        const orderIds = new Set(answers.map((a) => a.body?.order?.id).filter(Boolean));
        expect(orderIds.size, `checkout ${id}: ${answers.map((a) => a.text.slice(0, 200)).join(' | ')}`).toBe(1);
        orders.set(id, { orderId: [...orderIds][0], profile: agent.profile });
      }

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
                expect(
                  checked(
                    await send(replicas[here]!, {
                      op,
                      transport: s % 2 ? 'mcp' : 'rest',
                      profile: agent.profile,
                      payload: goodPayload(op),
                    }),
                  ).kind,
                ).toBe('success');
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
                const call = {
                  op: agent.kind.create!,
                  transport: 'rest' as const,
                  profile: agent.profile,
                  key: randomUUID(),
                  payload: { line_items: linesFor(s) },
                };
                const [a, b] = (await Promise.all(replicas.map((replica) => send(replica, call)))).map(checked);
                expect(a!.body.id).toBe(b!.body.id);
                expect([a!.replayed, b!.replayed].filter(Boolean)).toHaveLength(1);
                duplicates++;
                break;
              }
              case 'checkout': {
                // The complete sent to one replica and, the platform being impatient, the same request to the other.
                const key = randomUUID();
                await checkout(agent, here, [key, key]);
                break;
              }
              case 'racing_checkout':
                // Two completes of one session with different keys (two tabs), one per replica.
                await checkout(agent, here, [randomUUID(), randomUUID()]);
                break;
            }
          }
        }),
      );

      const lost: string[] = [];
      for (const [i, agent] of agents.entries()) {
        for (const problem of [await agent.lostWrite(i % 2), await agent.lostWrite(1 - (i % 2)), await agent.lostCreate(1 - (i % 2))])
          if (problem) lost.push(problem);
      }

      // Every completed checkout: one order in the checkout, the owner can read it, the store placed exactly one.
      let replica = 0;
      for (const [checkoutId, { orderId, profile }] of orders) {
        replica = 1 - replica;
        const session = checked(await send(replicas[replica]!, { op: readCheckout, transport: 'rest', profile, id: checkoutId }));
        expect([session.body.status, session.body.order?.id]).toEqual(['completed', orderId]);
        expect(checked(await send(replicas[replica]!, { op: readOrder, transport: 'rest', profile, id: orderId })).kind).toBe('success');
        expect((await replicas[replica]!.backend.findOrderByReference(checkoutId))?.orderId).toBe(orderId);
      }
      expect(new Set([...orders.values()].map((o) => o.orderId)).size).toBe(orders.size);
      expect(await ordersInStore(prefix)).toBe(orders.size);

      // Every order's Order created webhook reached its platform (at least once: deliveries may repeat).
      const orderIds = new Set([...orders.values()].map((o) => o.orderId));
      await vi.waitFor(
        () => {
          const delivered = new Set(receiver.received.map((w) => (JSON.parse(w.body) as { id: string }).id));
          const missing = [...orderIds].filter((id) => !delivered.has(id));
          if (missing.length > 0) throw new Error(`${missing.length} of ${orderIds.size} orders without a webhook`);
        },
        { timeout: 30_000, interval: 50 },
      );

      tally.set('agents', agents.length);
      tally.set('duplicate creates', duplicates);
      tally.set('completed checkouts', orders.size);
      tally.set('webhooks received', receiver.received.length);
      tally.set('writes lost', lost.length);
      expect(lost).toEqual([]);
      expect(tally.fiveHundreds).toBe(0);
    },
  );
});

/** Orders the demo store holds in Redis (its `adapter:memory:<tenant>:order:<id>` records). */
async function ordersInStore(prefix: string): Promise<number> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 0 });
  try {
    let count = 0;
    for await (const keys of client.scanStream({ match: `${prefix}k:adapter:memory:shop:order:*`, count: 500 }) as AsyncIterable<string[]>)
      count += keys.length;
    return count;
  } finally {
    client.disconnect();
  }
}
