/** The console's first page: every tenant at a glance, and the last configuration reload. */
import type { ReloadState } from '../../observability/metrics.js';
import { ago, html } from './page.js';
import { sparkline } from './sparkline.js';
import type { TenantStatus } from './tenant-status.js';

const CIRCUIT_TEXT = {
  closed: 'closed (calls go through)',
  half_open: 'half-open (trying one call)',
  open: 'open (calls refused)',
  isolated: 'isolated',
};

export const ms = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} ms`);
export const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)} %`;

export function circuitText(status: TenantStatus, now: number): string {
  const { state, changedAt } = status.circuit;
  const since = changedAt !== undefined && state !== 'closed' ? ` since ${ago(changedAt, now)}` : '';
  return `<span class="state-${state}">${CIRCUIT_TEXT[state]}</span>${since}`;
}

export function lastErrorText(status: TenantStatus, now: number): string {
  const last = status.health.lastStoreError;
  return last ? `<code>${html(last.code)}</code> ${ago(last.at, now)}` : '<span class="muted">none</span>';
}

function transports(status: TenantStatus): string {
  const entries = Object.entries(status.traffic.byTransport).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([name, count]) => `${html(name)} ${count}`).join(' · ') : '<span class="muted">none yet</span>';
}

function card(status: TenantStatus, now: number): string {
  const { health } = status;
  const label = `store latency p99 and errors per minute over the last ${health.minutes.length} minutes`;
  return `<article class="card" data-tenant="${html(status.id)}">
<h2><a href="/console/tenants/${encodeURIComponent(status.id)}">${html(status.name)}</a></h2>
<div class="muted">${html(status.id)} · ${html(status.adapter)} · ${html(status.finishing)}</div>
<dl>
<dt>Circuit</dt><dd class="circuit">${circuitText(status, now)}</dd>
<dt>Last store error</dt><dd class="last-error">${lastErrorText(status, now)}</dd>
<dt>Store latency</dt><dd>p50 ${ms(health.p50Ms)} · p99 ${ms(health.p99Ms)}</dd>
<dt>Error rate</dt><dd class="error-rate">${percent(health.errorRate)} of ${health.calls} calls</dd>
<dt>Requests</dt><dd class="transports">${transports(status)}</dd>
<dt>Rate-limited</dt><dd class="rate-limited">${status.traffic.rateLimited}</dd>
</dl>
${sparkline(health.minutes, label)}
</article>`;
}

function reloadText(reload: ReloadState | undefined, now: number): string {
  if (!reload) return '<p class="muted">Configuration: as started (no reload since).</p>';
  if (reload.outcome === 'ok') return `<p>Configuration: <span class="ok">reloaded</span> ${ago(reload.at, now)}.</p>`;
  return `<p class="reload-failed">Configuration: <span class="bad">last reload refused</span> ${ago(reload.at, now)};
the previous configuration keeps serving.
<br><code>${html(reload.reason ?? '')}</code></p>`;
}

export function tenantListBody(tenants: readonly TenantStatus[], reload: ReloadState | undefined, now: number): string {
  const window = tenants[0]?.health.minutes.length ?? 0;
  return `<h1>Tenants</h1>${reloadText(reload, now)}
<p class="muted">Store latency and error rate over the last ${window} minutes; requests and refusals since this replica started.</p>
<div class="cards">${tenants.map((t) => card(t, now)).join('')}</div>`;
}
