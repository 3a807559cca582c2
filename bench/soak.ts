/**
 * `npm run bench:soak`: one gateway on Redis answers 1,000,000 requests of a mixed workload
 * (discovery, search, get_product, create_cart, create_checkout, get_checkout) while its resident
 * memory is sampled. State lives in Redis, so whatever the process keeps growing is a leak; the
 * target is an RSS at the end within 10 % of the RSS after warm-up (the first 10 % of requests).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { serveAgentProfile } from './agent-profile.js';
import { startGateway } from './processes.js';
import { machine, writeSection } from './results-file.js';

const TOTAL = Number(process.env.SOAK_REQUESTS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const SAMPLE_EVERY = TOTAL / 10;

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const lines = [{ item: { id: 'bouquet_roses' }, quantity: 2 }];

async function main(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  const workDir = await mkdtemp(join(tmpdir(), 'proto-soak-'));
  const agent = await serveAgentProfile();
  const gateway = await startGateway({ name: 'soak', store: REDIS_URL, signResponses: true, workDir });
  try {
    const headers = { 'content-type': 'application/json', 'proto-agent': agent.header };
    const setup = await fetch(`${gateway.origin}/checkout-sessions`, {
      method: 'POST',
      headers: { ...headers, 'request-id': 'soak-setup', 'idempotency-key': 'soak-setup' },
      body: JSON.stringify({ line_items: lines }),
    });
    const checkoutId = ((await setup.json()) as { id: string }).id;
    let sequence = 0;
    const unique = (request: autocannon.Request) => {
      const id = `soak-${++sequence}`;
      return { ...request, headers: { ...headers, 'request-id': id, 'idempotency-key': id } };
    };
    const mix: autocannon.Request[] = [
      { method: 'GET', path: '/.well-known/proto' },
      { method: 'POST', path: '/catalog/search', headers, body: JSON.stringify({ query: 'roses' }), setupRequest: unique },
      { method: 'POST', path: '/catalog/product', headers, body: JSON.stringify({ id: 'florist_tee' }), setupRequest: unique },
      { method: 'POST', path: '/carts', headers, body: JSON.stringify({ line_items: lines }), setupRequest: unique },
      { method: 'POST', path: '/checkout-sessions', headers, body: JSON.stringify({ line_items: lines }), setupRequest: unique },
      { method: 'GET', path: `/checkout-sessions/${checkoutId}`, headers, setupRequest: unique },
    ];

    const samples: Array<{ requests: number; rss: number }> = [];
    let answered = 0;
    let failed = 0;
    const started = Date.now();
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const run = autocannon({ url: gateway.origin, connections: CONNECTIONS, amount: TOTAL, requests: mix }, (error, done) =>
        error ? reject(error as Error) : resolve(done),
      );
      run.on('response', (_client, status) => {
        answered++;
        if (status >= 400) failed++;
        if (answered % SAMPLE_EVERY === 0) {
          samples.push({ requests: answered, rss: gateway.rssBytes() });
          const seconds = (Date.now() - started) / 1000;
          process.stdout.write(
            `${answered.toLocaleString('en')} requests, ${Math.round(answered / seconds)} req/s, RSS ${mib(samples.at(-1)!.rss)} MiB\n`,
          );
        }
      });
    });

    const warm = samples[0]!;
    const end = samples.at(-1)!;
    const peak = Math.max(...samples.map((s) => s.rss));
    const drift = end.rss / warm.rss - 1;
    const met = Math.abs(drift) <= 0.1;
    const markdown = [
      '## Memory over a long run',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${machine()}. One gateway (demo tenant, Redis store, ` +
        `response signing on) answering ${TOTAL.toLocaleString('en')} requests from ${CONNECTIONS} ` +
        `connections, each cycling through discovery, search_catalog, get_product, create_cart, ` +
        `create_checkout and get_checkout; ${Math.round(result.requests.average)} req/s on average, ${failed} ` +
        `answers ≥ 400, ${result.errors + result.timeouts} socket errors or timeouts.`,
      '',
      '| requests answered | RSS MiB |',
      '|---:|---:|',
      ...samples.map((s) => `| ${s.requests.toLocaleString('en')} | ${mib(s.rss)} |`),
      '',
      `RSS after warm-up ${mib(warm.rss)} MiB, at the end ${mib(end.rss)} MiB ` +
        `(${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)} %), peak ${mib(peak)} MiB. Target: flat within ` +
        `10 %: ${met ? 'met' : '**not met**'}.`,
    ].join('\n');
    await writeSection('soak', markdown);
    process.stdout.write(`\n${markdown}\n\nwritten to bench/results.md\n`);
    if (failed > 0) throw new Error(`${failed} requests failed`);
  } finally {
    await gateway.stop();
    await agent.close();
    await redis.flushdb().catch(() => undefined);
    redis.disconnect();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
