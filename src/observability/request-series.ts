/**
 * The per-request metrics (proto_requests_total, proto_request_duration_seconds) counted into
 * plain running totals and handed to prom-client only when scraped. prom-client's own counting
 * validates and hashes the label set on every call and keys each bucket by its bound as a string:
 * the largest single cost of a discovery request after the access line. The exposition is still
 * prom-client's: the counter takes each series' total at collect time, and the histogram hands
 * the registry the values its Histogram class would (buckets cumulative, then +Inf, sum and count).
 */
import { Counter, Histogram, type Registry } from 'prom-client';

type RequestLabel = 'tenant' | 'operation' | 'transport';
type Labels = Record<RequestLabel, string>;

/** One latency series: counts per bucket (not yet cumulative), the last one past every bound. */
class LatencyTotals {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(seconds: number): void {
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += seconds;
    this.count++;
  }
}

/** Every series' totals, by tenant, operation, transport (latency) and status (requests). */
class Totals {
  readonly requests = new Map<string, SeriesTotals>();
  readonly latency = new Map<string, LatencyTotals>();

  clear(): void {
    this.requests.clear();
    this.latency.clear();
  }
}

interface SeriesTotals {
  labels: Labels & { status: string };
  count: number;
  latency: LatencyTotals;
}

/** prom-client's Histogram reading its series from the totals; the registry reads them through `getForPromString`. */
class LatencyHistogram extends Histogram<RequestLabel> {
  private readonly described: { name: string; help: string };
  /** Unset while prom-client's constructor runs (it calls `reset`). */
  private readonly totals?: Totals;

  constructor(
    totals: Totals,
    private readonly bounds: readonly number[],
    config: { name: string; help: string; registers: Registry[] },
  ) {
    super({ ...config, labelNames: ['tenant', 'operation', 'transport'], buckets: [...bounds] });
    this.described = { name: config.name, help: config.help };
    this.totals = totals;
  }

  override reset(): void {
    super.reset();
    this.totals?.clear();
  }

  /** What prom-client's Histogram hands the registry (its `get` splays the labels of the same values). */
  getForPromString() {
    const { name, help } = this.described;
    const values = [];
    for (const totals of this.totals!.latency.values()) {
      const sharedLabels = totals.labels;
      let cumulative = 0;
      for (const [i, le] of this.bounds.entries()) {
        cumulative += totals.counts[i]!;
        values.push({ labels: { le }, sharedLabels, value: cumulative, metricName: `${name}_bucket`, exemplar: null });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels, value: totals.count, metricName: `${name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels, value: totals.sum, metricName: `${name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels, value: totals.count, metricName: `${name}_count`, exemplar: undefined },
      );
    }
    return { name, help, type: 'histogram' as const, values, aggregator: 'sum' as const };
  }
}

export class RequestSeries {
  private readonly totals = new Totals();

  constructor(
    registry: Registry,
    private readonly buckets: readonly number[],
  ) {
    const registers = [registry];
    const { requests } = this.totals;
    new Counter({
      name: 'proto_requests_total',
      help: 'Requests answered, by tenant, operation, transport and HTTP status.',
      labelNames: ['tenant', 'operation', 'transport', 'status'],
      registers,
      collect() {
        this.reset();
        for (const totals of requests.values()) this.inc(totals.labels, totals.count);
      },
    });
    new LatencyHistogram(this.totals, buckets, {
      name: 'proto_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response.',
      registers,
    });
  }

  /** One answered request. */
  observe(tenant: string, operation: string, transport: string, status: number, seconds: number): void {
    const key = `${tenant}\n${operation}\n${transport}\n${status}`;
    let totals = this.totals.requests.get(key);
    if (!totals) {
      const labels = { tenant, operation, transport };
      const latencyKey = `${tenant}\n${operation}\n${transport}`;
      let latency = this.totals.latency.get(latencyKey);
      if (!latency) this.totals.latency.set(latencyKey, (latency = new LatencyTotals(labels, this.buckets)));
      totals = { labels: { ...labels, status: String(status) }, count: 0, latency };
      this.totals.requests.set(key, totals);
    }
    totals.count++;
    totals.latency.observe(seconds);
  }
}
