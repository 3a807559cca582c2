import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram, LatencySeries, PlainCounter, RequestSeries } from '../../src/observability/request-series.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The same two metrics as prom-client counts them itself, one call per request. */
function prometheusOwn(registry: Registry) {
  const registers = [registry];
  const requests = new Counter({
    name: 'proto_requests_total',
    help: 'Requests answered, by tenant, operation, transport and HTTP status.',
    labelNames: ['tenant', 'operation', 'transport', 'status'],
    registers,
  });
  const seconds = new Histogram({
    name: 'proto_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response.',
    labelNames: ['tenant', 'operation', 'transport'],
    buckets: BUCKETS,
    registers,
  });
  return (tenant: string, operation: string, transport: string, status: number, value: number) => {
    requests.inc({ tenant, operation, transport, status: String(status) });
    seconds.observe({ tenant, operation, transport }, value);
  };
}

describe('request series', () => {
  it('expose the text and JSON prom-client writes when it counts every request itself', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const series = new RequestSeries(ours, BUCKETS);
    const own = prometheusOwn(theirs);
    const requests: Array<[string, string, string, number, number]> = [];
    for (let i = 0; i < 500; i++) {
      const seconds = [0, 0.005, 0.0051, 0.3, 1, 29.9, 30, 31, Math.random() * 2][i % 9]!;
      const operation = ['search_catalog', 'discovery', 'unknown'][i % 3]!;
      requests.push(['demo', operation, i % 5 ? 'rest' : 'mcp', [200, 404, 500][(i % 7) % 3]!, seconds]);
    }
    requests.push(['other', 'get_product', 'http', 304, 0.002]);
    for (const request of requests) {
      series.observe(...request);
      own(...request);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    // A scrape counts nothing twice.
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('start again from nothing when the registry is reset', async () => {
    const registry = new Registry();
    const series = new RequestSeries(registry, BUCKETS);
    series.observe('demo', 'discovery', 'http', 200, 0.001);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('proto_request_duration_seconds_count{');
    series.observe('demo', 'discovery', 'http', 200, 0.001);
    const count = 'proto_request_duration_seconds_count{tenant="demo",operation="discovery",transport="http"} 1';
    expect(await registry.metrics()).toContain(count);
  });
});

describe('plain series of any labels', () => {
  const labelNames = ['tenant', 'method', 'outcome'] as const;
  type Label = (typeof labelNames)[number];
  const calls: Array<[string, string, string, number]> = [];
  for (let i = 0; i < 300; i++) {
    const seconds = [0, 0.005, 0.0051, 0.3, 1, 29.9, 30, 31, Math.random() * 2][i % 9]!;
    calls.push([i % 4 ? 'demo' : 'other', ['quote', 'search', 'ping'][i % 3]!, ['ok', 'error', 'timeout'][(i % 5) % 3]!, seconds]);
  }

  it('expose a latency histogram as prom-client writes it when it observes every call itself', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const config = { name: 'latency_seconds', help: 'Latency.', labelNames: [...labelNames] };
    const series = new LatencySeries<Label>(BUCKETS);
    new LatencyHistogram(series, BUCKETS, { ...config, registers: [ours] });
    const own = new Histogram({ ...config, buckets: BUCKETS, registers: [theirs] });
    for (const [tenant, method, outcome, seconds] of calls) {
      series.observe(`${tenant}\n${method}\n${outcome}`, { tenant, method, outcome }, seconds);
      own.observe({ tenant, method, outcome }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    ours.resetMetrics();
    theirs.resetMetrics();
    series.observe('demo\nping\nok', { tenant: 'demo', method: 'ping', outcome: 'ok' }, 0.2);
    own.observe({ tenant: 'demo', method: 'ping', outcome: 'ok' }, 0.2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('expose a counter as prom-client writes it when it counts every call itself', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const config = { name: 'calls_total', help: 'Calls.', labelNames: [...labelNames] };
    const counter = new PlainCounter<Label>({ ...config, registers: [ours] });
    const own = new Counter({ ...config, registers: [theirs] });
    for (const [tenant, method, outcome] of calls) {
      counter.add(`${tenant}\n${method}\n${outcome}`, { tenant, method, outcome });
      own.inc({ tenant, method, outcome });
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    // A scrape counts nothing twice; a reset starts from nothing.
    expect(await ours.metrics()).toBe(await theirs.metrics());
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    counter.add('demo\nping\nok', { tenant: 'demo', method: 'ping', outcome: 'ok' });
    own.inc({ tenant: 'demo', method: 'ping', outcome: 'ok' });
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
