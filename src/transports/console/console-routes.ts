/**
 * The operator console, on the operator listener only (admin.ts): GET /console (every tenant),
 * GET /console/tenants/:id (one tenant), sign-in and sign-out, and the dead-letter actions
 * (retry, discard), which need an operator (operator-auth.ts) and are each logged with who did
 * them. A refused action changes nothing and says why.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperatorToken } from '../../config/operator-tokens.js';
import { orderWebhookQueue } from '../../capabilities/order/outbox.js';
import type { Metrics } from '../../observability/metrics.js';
import type { StateStore } from '../../state/store.js';
import type { TenantRouting } from '../request-context.js';
import { OperatorAuth } from './operator-auth.js';
import { html, sendPage } from './page.js';
import { tenantListBody } from './tenant-list-page.js';
import { tenantPageBody } from './tenant-page.js';
import { outboxStatus, tenantStatus, webhookRegistrations } from './tenant-status.js';

export interface ConsoleDeps {
  metrics: Metrics;
  store: StateStore;
  routing: TenantRouting;
  operators: readonly OperatorToken[];
  /** Where actions are logged (the gateway's logger). */
  log: FastifyBaseLogger;
  /** The gateway's clock (how long ago things happened). */
  now: () => number;
}

const NOTICES: Record<string, string> = {
  retried: 'Queued again: the event is due now, its retries reset.',
  discarded: 'Discarded: the event will not be delivered.',
  gone: 'That event is no longer a dead letter (another operator or replica acted on it).',
};

const SIGN_IN = (failed: boolean, enabled: boolean) =>
  enabled
    ? `<h1>Sign in</h1>${failed ? '<p class="notice bad" role="alert">That token is not an operator token.</p>' : ''}
<form method="post" action="/console/sign-in"><label for="token">Operator token</label>
<p><input id="token" name="token" type="password" autocomplete="current-password" required></p>
<button class="primary">Sign in</button></form>`
    : '<h1>Sign in</h1><p>No operator token is configured on this gateway (OPERATOR_TOKEN or OPERATOR_TOKEN_FILE): ' +
      'the console only shows.</p>';

export async function operatorConsole(admin: FastifyInstance, deps: ConsoleDeps): Promise<void> {
  const { metrics, store, routing, log, now } = deps;
  const auth = new OperatorAuth(deps.operators);
  await admin.register(cookie);
  await admin.register(formbody, { bodyLimit: 4096 });
  const tenantById = (id: string) => routing.registry.tenants.find((t) => t.id === id);
  const frame = (req: FastifyRequest) => {
    const session = auth.session(req);
    return session ? { operator: session.operator, csrf: session.csrf } : {};
  };

  admin.get('/console', async (req, reply) => {
    const statuses = await Promise.all(routing.registry.tenants.map((tenant) => tenantStatus(tenant, metrics)));
    return sendPage(reply, { title: 'Tenants', ...frame(req), body: tenantListBody(statuses, metrics.lastReload, now()) });
  });

  admin.get<{ Params: { id: string }; Querystring: { done?: string } }>('/console/tenants/:id', async (req, reply) => {
    const tenant = tenantById(req.params.id);
    if (!tenant) return sendPage(reply, { title: 'Not found', ...frame(req), body: '<h1>No such tenant</h1>' }, 404);
    const [status, box, hooks] = await Promise.all([
      tenantStatus(tenant, metrics),
      outboxStatus(store, tenant.id),
      webhookRegistrations(tenant),
    ]);
    const session = frame(req);
    const done = req.query.done && NOTICES[req.query.done];
    return sendPage(reply, {
      title: tenant.name,
      ...session,
      ...(done && { notice: { text: done } }),
      body: tenantPageBody(status, box, hooks, now(), session.csrf),
    });
  });

  admin.get<{ Querystring: { failed?: string } }>('/console/sign-in', async (req, reply) =>
    sendPage(reply, { title: 'Sign in', ...frame(req), body: SIGN_IN(req.query.failed !== undefined, auth.enabled) }),
  );

  admin.post<{ Body: { token?: string } }>('/console/sign-in', async (req, reply) => {
    const operator = typeof req.body?.token === 'string' ? auth.operatorOf(req.body.token) : undefined;
    if (!operator) {
      log.warn({ component: 'console', ip: req.ip }, 'console: sign-in refused');
      return reply.redirect('/console/sign-in?failed', 303);
    }
    auth.startSession(reply, operator);
    log.info({ component: 'console', operator, ip: req.ip }, 'console: operator signed in');
    return reply.redirect('/console', 303);
  });

  admin.post('/console/sign-out', async (req, reply) => {
    if (auth.actor(req)) auth.endSession(reply);
    return reply.redirect('/console', 303);
  });

  const refuse = (req: FastifyRequest, reply: FastifyReply, tenant: string) => {
    log.warn({ component: 'console', tenant, url: req.url, ip: req.ip }, 'console: action refused without an operator credential');
    const why = auth.enabled
      ? 'Refused: actions need an operator. Sign in with your operator token, then try again from the page.'
      : 'Refused: no operator token is configured on this gateway (OPERATOR_TOKEN or OPERATOR_TOKEN_FILE), so the console only shows.';
    const back = `<p><a href="/console/tenants/${encodeURIComponent(tenant)}">Back to ${html(tenant)}</a></p>`;
    return sendPage(reply, { title: 'Refused', ...frame(req), notice: { text: why, bad: true }, body: back }, 403);
  };

  admin.post<{ Params: { id: string; job: string; action: string } }>(
    '/console/tenants/:id/dead-letters/:job/:action',
    async (req, reply) => {
      const { id, job, action } = req.params;
      const tenant = tenantById(id);
      if (!tenant || (action !== 'retry' && action !== 'discard'))
        return sendPage(reply, { title: 'Not found', body: '<h1>Not found</h1>' }, 404);
      const operator = auth.actor(req);
      if (!operator) return refuse(req, reply, id);
      const queue = orderWebhookQueue(store, tenant.id);
      const done = action === 'retry' ? await queue.replay(job) : await queue.discard(job);
      const outcome = done ? (action === 'retry' ? 'retried' : 'discarded') : 'gone';
      log.info({ component: 'console', operator, tenant: tenant.id, event: job, action, outcome }, `console: dead letter ${outcome}`);
      return reply.redirect(`/console/tenants/${encodeURIComponent(tenant.id)}?done=${outcome}`, 303);
    },
  );
}
