/**
 * Metrics counted into plain running totals and handed to prom-client only when scraped: the
 * per-request ones (proto_requests_total, proto_request_duration_seconds) here, and any other
 * latency histogram or counter the gateway bumps on a hot path (metrics.ts). prom-client's own
 * counting validates and hashes the label set on every call, a child made with `labels()` too,
 * and keys each bucket by its bound as a string: the largest single cost of a discovery request
 * after the access line, and about a µs per adapter call. The exposition is still prom-client's:
 * a counter takes each series' total at collect time, and the histogram hands the registry the
 * values its Histogram class would (buckets cumulative, then +Inf, sum and count).
 */
import { Counter, Histogram, type Registry } from 'prom-client';

type RequestLabel = 'tenant' | 'operation' | 'transport';
type Labels = Record<RequestLabel, string>;

/** One latency series: counts per bucket (not yet cumulative), the last one past every bound. */
export class LatencyTotals<L extends string = RequestLabel> {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<L, string>,
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

/** What a latency histogram exposes, and what a registry reset empties. */
export interface LatencySource<L extends string> {
  latencies(): Iterable<LatencyTotals<L>>;
  clear(): void;
}

/** Every series' totals, by tenant, operation, transport (latency) and status (requests). */
class Totals implements LatencySource<RequestLabel> {
  readonly requests = new Map<string, SeriesTotals>();
  readonly latency = new Map<string, LatencyTotals>();

  latencies(): Iterable<LatencyTotals> {
    return this.latency.values();
  }

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

/** prom-client's Histogram reading its series from plain totals; the registry reads them through `getForPromString`. */
export class LatencyHistogram<L extends string> extends Histogram<L> {
  private readonly described: { name: string; help: string };
  /** Unset while prom-client's constructor runs (it calls `reset`). */
  private readonly source?: LatencySource<L>;

  constructor(
    source: LatencySource<L>,
    private readonly bounds: readonly number[],
    config: { name: string; help: string; labelNames: L[]; registers: Registry[] },
  ) {
    super({ ...config, buckets: [...bounds] });
    this.described = { name: config.name, help: config.help };
    this.source = source;
  }

  override reset(): void {
    super.reset();
    this.source?.clear();
  }

  /** What prom-client's Histogram hands the registry (its `get` splays the labels of the same values). */
  getForPromString() {
    const { name, help } = this.described;
    const values = [];
    for (const totals of this.source!.latencies()) {
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

/** Latency series of any labels, each kept under a key its caller makes from the label values. */
export class LatencySeries<L extends string> implements LatencySource<L> {
  private readonly series = new Map<string, LatencyTotals<L>>();

  constructor(private readonly bounds: readonly number[]) {}

  observe(key: string, labels: Record<L, string>, seconds: number): void {
    let totals = this.series.get(key);
    if (!totals) this.series.set(key, (totals = new LatencyTotals(labels, this.bounds)));
    totals.observe(seconds);
  }

  latencies(): Iterable<LatencyTotals<L>> {
    return this.series.values();
  }

  clear(): void {
    this.series.clear();
  }
}

/** prom-client's Counter whose series are plain totals, handed over when the registry reads it. */
export class PlainCounter<L extends string> extends Counter<L> {
  /** Unset while prom-client's constructor runs. */
  private readonly totals?: Map<string, { labels: Record<L, string>; count: number }>;

  constructor(config: { name: string; help: string; labelNames: L[]; registers: Registry[] }) {
    super(config);
    this.totals = new Map();
  }

  /** One more in the series `key` names (a key its caller makes from the label values). */
  add(key: string, labels: Record<L, string>): void {
    const totals = this.totals!.get(key);
    if (totals) totals.count++;
    else this.totals!.set(key, { labels, count: 1 });
  }

  override reset(): void {
    super.reset();
    this.totals?.clear();
  }

  override async get() {
    super.reset(); // prom-client's own series only, filled again from the totals
    for (const { labels, count } of this.totals!.values()) this.inc(labels as never, count);
    return super.get();
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
      labelNames: ['tenant', 'operation', 'transport'],
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
