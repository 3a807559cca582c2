/**
 * The buyer's order page at the gateway's permalink (`/order-status/{id}?t=<token>`), for
 * stores that have none: what was bought and each line's status, where it goes, shipments with
 * tracking, refunds and returns, totals. Rendered from the same protocol order get_order returns,
 * every value HTML-escaped. It shows the destination's town, not the street or the buyer's name
 * and phone, since a link can be forwarded; a wrong or missing token is a plain 404.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OrderSnapshot } from '../../../adapters/contract.js';
import type { PostalAddress } from '../../../schemas/fulfillment.js';
import type { OrderBody } from '../../../schemas/order.js';
import { orderRefs, renderOrder } from '../../capabilities/order/order-shape.js';
import { ORDER_PAGE_PATH, permalinkTokenValid } from '../../capabilities/order/permalink.js';
import type { GatewaySecret } from '../../config/gateway-secret.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { formatAmount } from '../../../adapters/kit/money.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { tenantOf } from '../request-context.js';
import fp from 'fastify-plugin';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Raw HTML assembled from escaped parts; `html\`...\`` escapes every interpolated string. */
class Html {
  constructor(readonly text: string) {}
}
type Part = string | number | Html | Part[] | undefined | false;
const flatten = (part: Part): string =>
  part === undefined || part === false
    ? ''
    : part instanceof Html
      ? part.text
      : Array.isArray(part)
        ? part.map(flatten).join('')
        : escape(String(part));
const html = (strings: TemplateStringsArray, ...parts: Part[]) =>
  new Html(strings.reduce((out, s, i) => out + s + (i < parts.length ? flatten(parts[i]) : ''), ''));

const STATUS: Record<string, string> = { processing: 'Processing', partial: 'Partly sent', fulfilled: 'Sent', removed: 'Removed' };
const TOTAL: Record<string, string> = {
  subtotal: 'Subtotal',
  items_discount: 'Item discounts',
  discount: 'Discount',
  fulfillment: 'Shipping',
  tax: 'Tax',
  total: 'Total',
};

const cell = (value: Part) => html`<td>${value}</td>`;
/** Quantities and amounts, right-aligned. */
const numberCell = (value: Part) => html`<td class="n">${value}</td>`;

const label = (code: string) => code.charAt(0).toUpperCase() + code.slice(1).replace(/_/g, ' ');

function when(timestamp: string): string {
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? timestamp : new Date(time).toUTCString().replace(' GMT', ' UTC');
}

function town(address: PostalAddress): string {
  return [address.address_locality, [address.address_region, address.postal_code].filter(Boolean).join(' '), address.address_country]
    .filter(Boolean)
    .join(', ');
}

/** Only web links become links: a store's tracking URL never becomes a script. */
const safeLink = (url: string | undefined): string | undefined => (url !== undefined && /^https?:\/\//i.test(url) ? url : undefined);

function orderPage(tenant: Tenant, order: OrderBody, placedAt: string): string {
  const money = (amount: number) => formatAmount(amount, order.currency);
  const titles = new Map(order.line_items.map((line) => [line.id, line.item.title]));
  const lineList = (lines: Array<{ id: string; quantity: number }>) =>
    lines.map((l) => `${Math.abs(l.quantity)} × ${titles.get(l.id) ?? l.id}`).join(', ');
  const { expectations, events } = order.fulfillment;
  const adjustments = order.adjustments ?? [];
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Order ${order.id} · ${tenant.name}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right}.note{background:#fff4d6;padding:.5rem 1rem}</style>
</head><body><main>
<h1>Your order at ${tenant.name}</h1>
<p>Order <strong>${order.id}</strong>, placed ${when(placedAt)}.</p>
${(order.messages ?? []).map((m) => html`<p class="note">${m.content}</p>`)}
<h2>Items</h2>
<table><thead><tr><th>Item</th><th class="n">Ordered</th><th class="n">Now</th><th class="n">Sent</th>
<th>Status</th><th class="n">Price</th></tr></thead><tbody>
${order.line_items.map(
  (line) =>
    html`<tr>${[
      cell(line.item.title),
      numberCell(line.quantity.original),
      numberCell(line.quantity.total),
      numberCell(line.quantity.fulfilled),
      cell(STATUS[line.status]),
      numberCell(money(line.totals.find((t) => t.type === 'total')?.amount ?? 0)),
    ]}</tr>\n`,
)}</tbody></table>
<h2>Delivery</h2>
<ul>${expectations.map(
    (e) =>
      html`<li>${[
        html`${label(e.method_type)}: ${lineList(e.line_items)}`,
        e.description && html` · ${e.description}`,
        town(e.destination) && html` · to ${town(e.destination)}`,
        e.fulfillable_on && e.fulfillable_on !== 'now' && html` · from ${e.fulfillable_on}`,
      ]}</li>`,
  )}</ul>
${
  events.length > 0 &&
  html`<h2>Shipments</h2>
<ol>${events.map((e) => {
    const tracking = e.tracking_number ?? e.tracking_url;
    const link = safeLink(e.tracking_url);
    return html`<li>${[
      html`${when(e.occurred_at)}: ${label(e.type)}, ${lineList(e.line_items)}`,
      e.carrier && html` · ${e.carrier}`,
      tracking && html` · tracking ${link ? html`<a href="${link}" rel="noopener noreferrer">${tracking}</a>` : tracking}`,
      e.description && html` · ${e.description}`,
    ]}</li>`;
  })}</ol>`
}
${
  adjustments.length > 0 &&
  html`<h2>Refunds, returns and changes</h2>
<ul>${adjustments.map((a) => {
    const amount = a.totals?.find((t) => t.type === 'total')?.amount;
    return html`<li>${[
      html`${when(a.occurred_at)}: ${label(a.type)} (${a.status})`,
      a.line_items && html`, ${lineList(a.line_items)}`,
      amount !== undefined && html` · ${money(amount)}`,
      a.description && html` · ${a.description}`,
    ]}</li>`;
  })}</ul>`
}
<h2>Totals</h2>
<table><tbody>${order.totals.map(
    (t) => html`<tr>${[cell(TOTAL[t.type] ?? label(t.type)), numberCell(money(t.amount))]}</tr>`,
  )}</tbody></table>
</main></body></html>
`.text;
}

const NOT_FOUND = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Order not found</title></head>
<body><main><h1>Order not found</h1><p>This order link is not valid. Use the link you were given with your order.</p></main></body></html>
`.text;

function send(reply: FastifyReply, status: 200 | 404, page: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .headers({
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    })
    .send(page);
}

/** A Fastify plugin. */
async function addOrderPages(app: FastifyInstance, { secret }: { secret: GatewaySecret }): Promise<void> {
  app.get(`${ORDER_PAGE_PATH}/:id`, async (req, reply) => {
    req.operation = 'order_page';
    const tenant = tenantOf(req);
    const { id } = req.params as { id: string };
    const { t } = req.query as { t?: unknown };
    if (!tenant.capabilities.has(CAPABILITY.order) || !permalinkTokenValid(secret, tenant.id, id, t)) return send(reply, 404, NOT_FOUND);
    const order: OrderSnapshot | null = await tenant.adapter.getOrder(id);
    if (!order) return send(reply, 404, NOT_FOUND);
    return send(reply, 200, orderPage(tenant, renderOrder(order, orderRefs({ tenant, secret }, order, null)), order.createdAt));
  });
}

export const orderPages = fp(addOrderPages, {
  name: 'order-pages',
  encapsulate: true,
  dependencies: ['request-hooks', 'rest-errors', 'rate-limits'],
  decorators: { request: ['tenant', 'operation'] },
});
