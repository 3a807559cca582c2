/**
 * One tenant's page: its health as on the list, its recent problems (codes and times only), its
 * order-webhook outbox with each dead letter's retry and discard, and the store's webhook
 * registrations. What a dead letter shows is the gateway's own: the event, the order id, its
 * kind, attempts, when it died and why (the delivery's outcome), where it went without
 * credentials, query or fragment; never the order's contents.
 */
import type { OrderEvent } from '../../capabilities/order/order-event.js';
import type { DeadJob } from '../../state/store.js';
import { ago, html, row, table } from './page.js';
import { sparkline } from './sparkline.js';
import { circuitText, lastErrorText, ms, percent } from './tenant-list-page.js';
import type { OutboxStatus, Registrations, TenantStatus } from './tenant-status.js';
import { destinationText } from '../../webhooks/destination-text.js';

function problems(status: TenantStatus, now: number): string {
  const rows = status.health.problems.map((p) => row([html(p.kind.replace('_', ' ')), `<code>${html(p.code)}</code>`, ago(p.at, now)]));
  if (rows.length === 0) return '<p class="muted">No problems since this replica started.</p>';
  return table('problems', ['What', 'Code', 'When'], rows);
}

function actions(tenantId: string, job: DeadJob<OrderEvent>, csrf: string | undefined): string {
  const base = `/console/tenants/${encodeURIComponent(tenantId)}/dead-letters/${encodeURIComponent(job.id)}`;
  const token = `<input type="hidden" name="csrf" value="${html(csrf ?? '')}">`;
  const button = (action: string, label: string, primary: boolean) =>
    `<form class="inline" method="post" action="${base}/${action}">${token}` +
    `<button${primary ? ' class="primary"' : ''} aria-label="${label} ${html(job.id)}">${label}</button></form>`;
  return `${button('retry', 'Retry', true)} ${button('discard', 'Discard', false)}`;
}

function deadLetterRow(tenantId: string, job: DeadJob<OrderEvent>, now: number, csrf: string | undefined): string {
  const { kind, order } = job.payload;
  const event = `<code>${html(job.id)}</code><br><span class="muted">${html(kind)} · order ${html(order.id)}</span>`;
  const died = `${ago(job.diedAt, now)}<br><span class="muted">${html(job.reason)}</span>`;
  const cells = [
    event,
    html(destinationText(job.payload.webhookUrl)),
    `${job.attempts} attempt${job.attempts === 1 ? '' : 's'}`,
    died,
    actions(tenantId, job, csrf),
  ];
  return row(cells, ` data-event="${html(job.id)}"`);
}

function outbox(tenantId: string, status: OutboxStatus | undefined, now: number, csrf: string | undefined): string {
  if (!status) return '<p class="bad">The state store cannot be read now.</p>';
  const oldest = status.dead[0];
  const died = oldest ? `, the oldest died ${ago(oldest.diedAt, now)}` : '';
  const { nextDueAt } = status;
  const seconds = nextDueAt === undefined ? 0 : Math.round(Math.abs(nextDueAt - now) / 1000);
  const wait = nextDueAt === undefined ? '' : nextDueAt > now ? ` (next attempt in ${seconds} s)` : ` (the oldest has waited ${seconds} s)`;
  const summary = `<p class="outbox-summary">${status.queued} waiting${wait} · ${status.dead.length} dead${died}</p>`;
  if (status.dead.length === 0) return summary;
  const rows = status.dead.map((job) => deadLetterRow(tenantId, job, now, csrf));
  return summary + table('dead-letters', ['Event', 'To', 'Attempts', 'Died', ''], rows);
}

function registrations(found: Registrations): string {
  if ('unsupported' in found) return '<p class="muted">This adapter cannot read the store’s webhooks.</p>';
  if ('unavailable' in found) return `<p class="bad">The store did not say (${html(found.unavailable)}).</p>`;
  const { needed, registered } = found.setup;
  const missing = needed.filter((topic) => !registered.some((r) => r.topic === topic && r.active));
  const verdict = missing.length
    ? `<span class="bad">Not delivering: ${missing.map(html).join(', ')}</span>`
    : '<span class="ok">Every topic the gateway needs is registered.</span>';
  const state = (active: boolean) => (active ? 'active' : '<span class="bad">paused</span>');
  const rows = registered.map((r) => row([html(r.topic), html(destinationText(r.url)), state(r.active)]));
  return `<p class="registrations-verdict">${verdict}</p>${rows.length ? table('registrations', ['Topic', 'To', 'State'], rows) : ''}`;
}

export function tenantPageBody(
  status: TenantStatus,
  box: OutboxStatus | undefined,
  hooks: Registrations,
  now: number,
  csrf: string | undefined,
): string {
  const { health } = status;
  return `<h1>${html(status.name)} <span class="muted">${html(status.id)}</span></h1>
<dl><dt>Adapter</dt><dd>${html(status.adapter)}</dd><dt>Finishing</dt><dd>${html(status.finishing)}</dd>
<dt>Circuit</dt><dd class="circuit">${circuitText(status, now)}</dd>
<dt>Last store error</dt><dd>${lastErrorText(status, now)}</dd>
<dt>Store latency</dt><dd>p50 ${ms(health.p50Ms)} · p99 ${ms(health.p99Ms)}</dd>
<dt>Error rate</dt><dd>${percent(health.errorRate)} of ${health.calls} calls</dd></dl>
${sparkline(health.minutes, `store latency p99 and errors per minute over the last ${health.minutes.length} minutes`)}
<h2>Recent problems</h2>${problems(status, now)}
<h2>Order webhooks</h2>${outbox(status.id, box, now, csrf)}
<h2>Webhook registrations at the store</h2>${registrations(hooks)}`;
}
