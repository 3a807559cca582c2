/**
 * `npm run bench:stages`: what each pipeline stage of create_checkout costs, in-process, in µs per
 * call, so that a regression is found without a profiler. Every stage calls the gateway's own
 * functions in the order the request runs them (src/pipeline/pipeline.ts, then
 * checkout-service.ts `open`), on the demo tenant with a memory store; the whole request is
 * measured too, through the pipeline and through Fastify (inject, no socket).
 *
 * Each stage runs ROUNDS rounds of CALLS calls, alternating with the other stages, and reports its
 * median round: a machine shared with other work slows a round, not a stage. CPU time
 * (process.cpuUsage) is reported beside wall time; the two differ when the machine is busy.
 * What signing adds to a whole request is not taken from these rounds (see bench/signing-cost.ts).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { CheckoutCreateRequest } from '../schemas/checkout.js';
import { GatewaySecret } from '../src/config/gateway-secret.js';
import { bufferedLog } from '../src/observability/log-destination.js';
import { Metrics } from '../src/observability/metrics.js';
import { Idempotency } from '../src/pipeline/idempotency.js';
import { fingerprint } from '../src/security/fingerprint.js';
import { ownerOf } from '../src/security/auth/principal.js';
import type { OperationContext } from '../src/capabilities/context.js';
import { Pipeline } from '../src/pipeline/pipeline.js';
import { operations } from '../src/pipeline/table.js';
import { signAnswer } from '../src/pipeline/answer-signing.js';
import { signBytes } from '../src/security/algorithms.js';
import { negotiated } from '../src/protocol/negotiated.js';
import { defaultProfileFetcherOptions, ProfileFetcher } from '../src/protocol/profile-fetcher.js';
import { buildServer } from '../src/server.js';
import { MemoryStore } from '../src/state/memory-store.js';
import { loadTenants } from '../src/tenancy/load.js';
import type { Tenant } from '../src/tenancy/tenant.js';
import { compile } from '../schemas/validator.js';
import { priceCheckout } from '../src/capabilities/checkout/checkout-pricing.js';
import { pickupLocationsOnce, readDraft } from '../src/capabilities/checkout/checkout-inputs.js';
import { newCheckoutId } from '../src/capabilities/checkout/checkout-record.js';
import { checkoutRepository } from '../src/capabilities/checkout/checkout-repository.js';
import { built } from '../src/capabilities/checkout/checkout-service.js';
import { identifyLines } from '../src/capabilities/pricing/line-ids.js';
import { serveAgentProfile } from './agent-profile.js';
import { machine, writeSection } from './results-file.js';
import { CALLGRIND_KIND, callgrindChild, signingCost, type Kinds } from './signing-cost.js';

const CALLS = Number(process.env.STAGES_CALLS ?? 2000);
const ROUNDS = Number(process.env.STAGES_ROUNDS ?? 7);

const PAYLOAD = { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 2 }], buyer: { email: 'bench@example.com' } };
const PAYLOAD_TEXT = JSON.stringify(PAYLOAD);

interface Stage {
  name: string;
  what: string;
  /** One call; `i` numbers the calls of a round (fresh keys, ids). */
  call(i: number): unknown;
}

interface Timing {
  wallMicros: number;
  cpuMicros: number;
}

async function time(stage: Stage, calls: number, offset: number): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await stage.call(offset + i);
  const wall = Number(process.hrtime.bigint() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { wallMicros: wall / calls, cpuMicros: (used.user + used.system) / calls };
}

/** The demo tenant as shipped (data from this checkout), response signing as asked. */
async function demoConfig(dir: string, sign: boolean): Promise<string> {
  const demo = await readFile(resolve('config/tenants/demo.yaml'), 'utf8');
  await mkdir(join(dir, 'tenants'), { recursive: true });
  await writeFile(
    join(dir, 'tenants', 'demo.yaml'),
    demo.replace(/data_dir: .*/, `data_dir: ${resolve('config/demo')}`).replace(/sign_responses: .*/, `sign_responses: ${sign}`),
  );
  return dir;
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'proto-stages-'));
  const agent = await serveAgentProfile();
  // Under callgrind a call lasts 50 × longer in wall time, so work the store does per second of
  // wall time (its expiry sweep) would be counted into each run by how long the machine made it take.
  const store = new MemoryStore(process.env[CALLGRIND_KIND] ? { sweepIntervalMs: 2 ** 31 - 1 } : {});
  const now = Date.now;
  const deps = { env: process.env, now, store, baseUrl: 'http://127.0.0.1:1' };
  const tenants = await loadTenants(await demoConfig(join(workDir, 'signing'), true), deps);
  const unsignedTenants = await loadTenants(await demoConfig(join(workDir, 'unsigned'), false), deps);
  const tenant: Tenant = tenants.tenants[0]!;
  const nullLog = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  // The agent's profile is fetched once and kept: under callgrind (50 × slower) the default 3 s
  // timeout and its 300 s max-age would each fetch it again, in one run and not another.
  const profiles = new ProfileFetcher({ ...defaultProfileFetcherOptions, timeoutMs: 120_000, minTtlMs: 86_400_000 });
  const secret = GatewaySecret.from(undefined);
  const metrics = new Metrics();
  const idempotency = new Idempotency(store);
  const pipeline = new Pipeline(operations, { store, profiles, idempotency, secret, now });
  const gateway = (registry: typeof tenants): Promise<FastifyInstance> =>
    buildServer({
      settings: { bodyLimitBytes: 1 << 20, logLevel: 'info' },
      tenants: registry,
      store,
      profiles,
      secret,
      metrics: new Metrics(),
      logStream: bufferedLog('/dev/null'),
    });
  const app = await gateway(tenants);
  const unsigned = await gateway(unsignedTenants);
  const op = operations.find((o) => o.name === 'create_checkout')!;
  const profileUrl = agent.header.match(/profile="([^"]+)"/)![1]!;

  const profile = await profiles.get(profileUrl, true);
  const negotiation = negotiated(tenant, profile);
  const principal = await tenant.security.admit({ capability: op.capability, profileUrl, profile, now });
  const ctx: OperationContext = {
    tenant,
    caller: { profileUrl, profile, active: negotiation.active, principal, owner: ownerOf(principal, profileUrl) },
    transport: 'rest',
    requestId: 'stages',
    log: nullLog,
    store,
    secret,
    now,
  };
  let sequence = 0;
  const validate = compile(CheckoutCreateRequest);
  const request = validate(JSON.parse(PAYLOAD_TEXT)) as { ok: true; value: CheckoutCreateRequest };
  const basis = {
    lines: identifyLines(request.value.line_items ?? [], []),
    context: undefined,
    buyer: request.value.buyer,
    carriedCodes: [],
  };

  // What the later stages take as input: one priced and rendered checkout.
  const locations = pickupLocationsOnce(ctx);
  const draft = await readDraft(ctx, request.value, basis, locations);
  const priced = await priceCheckout(ctx, draft.session, locations, { asks: draft.asks });
  const answer = built(ctx, draft, priced);
  // Every create_checkout answer is new (its id), so each signature is measured over a body never signed before.
  const body = negotiation.envelope('success', op.capability, answer.body);
  const idAt = body.indexOf(answer.session.id);
  const freshBody = () => `${body.slice(0, idAt)}${++sequence}${body.slice(idAt)}`;
  const signingKey = tenant.security.keyring.active!;
  const access = pino({ level: 'info' }, bufferedLog('/dev/null')); // as the gateway writes its request lines
  const fakeReq = { tenant, operation: op.name, transport: 'rest', routeOptions: {} } as never;
  const fakeReply = { statusCode: 201, elapsedTime: 1.5 } as never;

  const inject = async (server: FastifyInstance) => {
    const id = `inject-${++sequence}`;
    const response = await server.inject({
      method: 'POST',
      url: '/checkout-sessions',
      headers: {
        host: '127.0.0.1:1',
        'content-type': 'application/json',
        'proto-agent': agent.header,
        'request-id': id,
        'idempotency-key': id,
      },
      payload: PAYLOAD_TEXT,
    });
    if (response.statusCode !== 201) throw new Error(`create_checkout answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  };

  // The same create_checkout as an MCP tools/call, as platforms send it: a bare JSON-RPC POST.
  const injectMcp = async (server: FastifyInstance) => {
    const id = `mcp-${++sequence}`;
    const meta = { 'proto-agent': { profile: profileUrl }, 'request-id': id, 'idempotency-key': id };
    const response = await server.inject({
      method: 'POST',
      url: '/mcp',
      headers: { host: '127.0.0.1:1', 'content-type': 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: op.name, arguments: { meta, checkout: PAYLOAD } },
      }),
    });
    if (response.statusCode !== 200 || !response.body.startsWith('{"result":{"content"')) {
      throw new Error(`MCP create_checkout answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    }
  };

  // The three kinds of call issue 32's signing target compares, for the measurements at the end.
  let n = 0;
  const kinds: Kinds = {
    signed: () => inject(app),
    unsigned: () => inject(unsigned),
    bare: () => signBytes(signingKey.algorithm, signingKey.privateKey, Buffer.from(`${++n}${'x'.repeat(297)}`)),
  };
  if (process.env[CALLGRIND_KIND]) await callgrindChild(kinds);

  const stages: Stage[] = [
    {
      name: 'negotiation',
      what: 'profile from cache, capabilities negotiated (cached per profile), caller admitted',
      call: async () => {
        const p = await profiles.get(profileUrl, true);
        negotiated(tenant, p);
        await tenant.security.admit({ capability: op.capability, profileUrl, profile: p, now });
      },
    },
    { name: 'validation', what: 'the payload against CheckoutCreateRequest (Ajv)', call: () => validate(JSON.parse(PAYLOAD_TEXT)) },
    {
      name: 'idempotency',
      what: 'key checked, request fingerprinted, reserved and the answer recorded (memory store)',
      call: async () => {
        const k = `stage-${++sequence}`;
        await idempotency.run(`idem:${tenant.id}:scope:${k}`, fingerprint([op.name, '', PAYLOAD_TEXT]), 60_000, async () => ({
          status: 201,
          outcome: 'success',
          body,
        }));
      },
    },
    {
      name: 'pricing',
      what: 'request read into the draft, priced by the demo store (quote, discounts, fulfillment), status decided',
      call: async () => {
        const read = await readDraft(ctx, request.value, basis, locations);
        await priceCheckout(ctx, read.session, locations, { asks: read.asks });
      },
    },
    { name: 'rendering', what: 'the checkout rendered in the status pricing decided', call: () => built(ctx, draft, priced) },
    {
      name: 'store write',
      what: 'the new session inserted (memory store)',
      call: () => checkoutRepository(ctx).insert({ ...answer.session, id: newCheckoutId() }),
    },
    {
      name: 'serialization',
      what: 'the answer envelope to JSON text',
      call: () => negotiation.envelope('success', op.capability, answer.body),
    },
    {
      name: 'signing',
      what: 'Content-Digest, Signature-Input and an ES256 Signature over a new body',
      call: () => signAnswer(tenant, { status: 201, contentType: 'application/json; charset=utf-8', body: freshBody() }, now),
    },
    {
      name: 'bare ES256 sign',
      what: "one ECDSA P-256 signature of a 300-byte signature base with the tenant's key, nothing else: the unit of the signing target",
      call: () => signBytes(signingKey.algorithm, signingKey.privateKey, Buffer.from(`${sequence++}${'x'.repeat(297)}`)),
    },
    {
      name: 'logging',
      what: 'the request log line (pino, to /dev/null) and the request metrics',
      call: () => {
        access.info({ reqId: 'stages', tenant: tenant.id, operation: op.name, transport: 'rest', status: 201, latency_ms: 1.5 }, 'request');
        metrics.observeRequest(fakeReq, fakeReply);
      },
    },
  ];
  const whole: Stage[] = [
    {
      name: 'pipeline.execute',
      what: 'the whole operation through the pipeline, no transport',
      call: (i) =>
        pipeline.execute(op, {
          tenant,
          transport: 'rest',
          requestId: 'stages',
          log: nullLog,
          profileUrl,
          payload: JSON.parse(PAYLOAD_TEXT),
          payloadBytes: PAYLOAD_TEXT,
          idempotencyKey: `whole-${i}-${++sequence}`,
        }),
    },
    {
      name: 'HTTP (inject)',
      what: 'the whole request through Fastify, response signed and logged (light-my-request, no socket)',
      call: () => inject(app),
    },
    {
      name: 'MCP tools/call (inject)',
      what: 'the same request as an MCP tools/call on POST /mcp, signed and logged: the difference is what the MCP binding costs',
      call: () => injectMcp(app),
    },
  ];

  // STAGES_ONLY=signing,HTTP (inject) runs those alone (while profiling one, say); nothing is written then.
  const only = process.env.STAGES_ONLY?.split(',');
  const all = [...stages, ...whole].filter((s) => !only || only.includes(s.name));
  for (const stage of all) await time(stage, Math.min(500, CALLS), 0); // warm-up: compiled and cached
  const rounds = new Map<Stage, Timing[]>(all.map((s) => [s, []]));
  // STAGES_CPU_PROFILE=file.cpuprofile: a V8 profile of the measured rounds only (no start-up, no warm-up).
  const profiler = process.env.STAGES_CPU_PROFILE ? await startProfiler() : undefined;
  for (let round = 0; round < ROUNDS; round++) {
    process.stdout.write(`round ${round + 1}/${ROUNDS}\n`);
    for (const stage of all) rounds.get(stage)!.push(await time(stage, CALLS, round * CALLS));
  }
  if (profiler) await writeFile(process.env.STAGES_CPU_PROFILE!, JSON.stringify(await profiler.stop()));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const signing = !only || only.includes('signing A/B') ? await signingCost(kinds, process.argv[1]!) : undefined;
  const row = (stage: Stage) => {
    const timings = rounds.get(stage)!;
    return { stage, cpu: median(timings.map((t) => t.cpuMicros)), wall: median(timings.map((t) => t.wallMicros)) };
  };
  const stageRows = stages.filter((s) => rounds.has(s)).map(row);
  const wholeRows = whole.filter((s) => rounds.has(s)).map(row);
  const sum = stageRows.reduce((total, r) => total + r.cpu, 0);
  const fixed = (n: number) => n.toFixed(1);
  const load = (await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');
  const markdown = [
    '## create_checkout stage by stage',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} (1, 5, 15 min). ` +
      `\`npm run bench:stages\`: each stage of create_checkout run in-process on the demo tenant (memory store, response signing on), ` +
      `${CALLS} calls per round, ${ROUNDS} rounds alternating the stages; the median round is shown. ` +
      `CPU µs is process CPU time per call; wall µs includes what the machine's other work took from it.`,
    '',
    '| stage | what it runs | CPU µs/call | wall µs/call |',
    '|---|---|---:|---:|',
    ...stageRows.map((r) => `| ${r.stage.name} | ${r.stage.what} | ${fixed(r.cpu)} | ${fixed(r.wall)} |`),
    `| **sum of the stages** |  | **${fixed(sum)}** |  |`,
    ...wholeRows.map((r) => `| ${r.stage.name} | ${r.stage.what} | ${fixed(r.cpu)} | ${fixed(r.wall)} |`),
    '',
    ...(signing ? [...signing, ''] : []),
    'The whole request costs more than the sum of its stages by what no stage names: routing, the JSON body parser, promise ' +
      'hops and garbage collection; Fastify inject adds its own request and response objects, which a socket replaces with the ' +
      "kernel's work (see the throughput table for the gateway as a process).",
  ].join('\n');
  process.stdout.write(`\n${markdown}\n`);
  if (!only && process.env.STAGES_WRITE !== '0') {
    await writeSection('stages', markdown);
    process.stdout.write('\nwritten to bench/results.md\n');
  }
  await app.close();
  await unsigned.close();
  await store.close();
  await tenants.close();
  await unsignedTenants.close();
  await agent.close();
  await rm(workDir, { recursive: true, force: true });
}

async function startProfiler(): Promise<{ stop(): Promise<object> }> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<object>((ok, fail) => session.post(method, (error, result) => (error ? fail(error) : ok(result ?? {}))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return { stop: async () => ((await post('Profiler.stop')) as { profile: object }).profile };
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:stages failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
