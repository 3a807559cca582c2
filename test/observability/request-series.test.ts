import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestSeries } from '../../src/observability/request-series.js';

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
