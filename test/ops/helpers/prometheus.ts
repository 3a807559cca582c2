/** Reads samples out of a Prometheus text exposition, matching labels as a set (order-free). */
import type { FastifyInstance } from 'fastify';

export type Labels = Record<string, string>;

function parseLabels(text: string): Labels {
  const labels: Labels = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[match[1]!] = match[2]!;
  return labels;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
export function sample(text: string, name: string, labels: Labels = {}): number | undefined {
  const matches = text
    .split('\n')
    .map((line) => /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === name)
    .filter((m) => Object.entries(labels).every(([k, v]) => parseLabels(m[2] ?? '')[k] === v));
  if (matches.length > 1) throw new Error(`${matches.length} samples of ${name} match ${JSON.stringify(labels)}; name more labels`);
  return matches[0] ? Number(matches[0][3]) : undefined;
}

/** Every label value of `label` among the samples named `name`. */
export function labelValues(text: string, name: string, label: string): string[] {
  return text
    .split('\n')
    .map((line) => /^(\w+)\{(.*)\} \S+$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === name)
    .map((m) => parseLabels(m[2]!)[label]!)
    .filter((v) => v !== undefined);
}

/** The gateway's metrics, read from its admin listener. */
export async function scrape(app: FastifyInstance): Promise<string> {
  const res = await app.admin.inject({ method: 'GET', url: '/metrics' });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  return res.body;
}
