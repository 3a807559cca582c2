import { defineConfig } from 'vitest/config';

/**
 * Projects, so the inner loop stays fast: `unit` is every in-process suite (`npm run test:unit`);
 * `reliability` the long in-process fuzz and fault suites; `redis` the suites that need the
 * Redis at REDIS_URL; `processes` those that start gateways, Redis servers or clusters as child
 * processes; `browser` the Chromium suites; `medusa` the suites against a real Medusa server
 * (examples/medusa-store, started once per run). `npm test` runs them all.
 */
const redis = [
  'test/capabilities/cart/redis.test.ts',
  'test/capabilities/checkout/exactly-once.test.ts',
  'test/integration/idempotency.test.ts',
  'test/state/create-store.test.ts',
  'test/state/store-contract.test.ts',
  'test/webhooks/redis.test.ts',
  'test/**/*.redis.test.ts',
];
const processes = [
  'test/ops/docker.test.ts',
  'test/ops/process.test.ts',
  'test/ops/rate-limit.test.ts',
  'test/ops/replicas.test.ts',
  'test/ops/tls.test.ts',
  'test/reliability/load.test.ts',
  'test/reliability/store-faults.test.ts',
  'test/state/redis-cluster.test.ts',
  'test/state/redis-recovery.test.ts',
  'test/**/*.process.test.ts',
  'test/first-run/**/*.test.ts',
];
const reliability = ['test/reliability/**/*.test.ts'];
const browser = ['test/browser/**/*.test.ts'];
const medusa = ['test/adapters/medusa/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    experimental: { fsModuleCache: true },
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // In-process suites only: worker threads start and pass results cheaper than forked
          // processes (the unit run 39-41 s -> 35-36 s wall, 64 -> 56 s CPU, on 2 cores).
          pool: 'threads',
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: [...redis, ...processes, ...reliability, ...browser, ...medusa],
        },
      },
      { extends: true, test: { name: 'reliability', include: reliability, exclude: processes } },
      { extends: true, test: { name: 'redis', include: redis } },
      { extends: true, test: { name: 'processes', include: processes, globalSetup: ['test/helpers/build-once.ts'] } },
      { extends: true, test: { name: 'browser', include: browser, globalSetup: ['test/helpers/build-page.ts'] } },
      // One real Medusa server per run (a fresh database, seeded), shared by the files in order.
      {
        extends: true,
        test: {
          name: 'medusa',
          include: medusa,
          // demo:medusa's process test starts its own store: it runs in `processes`.
          exclude: processes,
          globalSetup: ['test/helpers/medusa-global.ts'],
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
