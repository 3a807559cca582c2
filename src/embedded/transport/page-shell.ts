/**
 * The HTML of an embedded page: a shell that loads the page's script and styles from the gateway
 * and hands them their configuration as inert JSON, so no inline script is needed and the CSP
 * can forbid all of it. Framing is limited to the tenant's host origins; nothing sets a cookie.
 */
import type { FastifyReply } from 'fastify';
import type { SessionKind } from '../settings.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { Tenant } from '../../tenancy/tenant.js';

/** What the page script reads from `#ep-config` (the interface contract with page/). */
export interface PageConfig {
  kind: SessionKind;
  version: string;
  rpc: string;
  hostOrigins: readonly string[];
  delegate: readonly string[];
  storefrontUrl: string;
  businessName: string;
  /** The credential the page asks its host for, when the business requires one for this kind of session. */
  auth?: { type: 'oauth' | 'api_key' };
  /** The fields the page marks required: the buyer fields the store requires, and what a delivery address needs. */
  required: { buyer: readonly string[]; address: readonly string[] };
}

/**
 * What the gateway needs of a delivery address: a place to deliver to, and its country and region,
 * by which tax is priced (src/extensions/fulfillment/gaps.ts asks for the region when tax depends on it).
 */
const ADDRESS_REQUIRED = ['street_address', 'address_locality', 'address_region', 'postal_code', 'address_country'];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON that cannot end its <script> element or be read as markup. */
const inertJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function contentSecurityPolicy(hostOrigins: readonly string[] | undefined): string {
  const ancestors = hostOrigins?.length ? hostOrigins.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

export function pageConfig(tenant: Tenant, kind: SessionKind, rpc: string): PageConfig {
  const auth = tenant.security.hostCredentialFor(kind === 'cart' ? CAPABILITY.cart : CAPABILITY.checkout);
  return {
    kind,
    version: PROTOCOL_VERSION,
    rpc,
    hostOrigins: tenant.embedded?.hostOrigins ?? [],
    delegate: tenant.embedded?.delegate[kind] ?? [],
    storefrontUrl: tenant.adapter.storefrontUrl,
    businessName: tenant.name,
    ...(auth && { auth: { type: auth } }),
    required: { buyer: tenant.policies.requiredBuyerFields, address: ADDRESS_REQUIRED },
  };
}

export function renderShell(tenant: Tenant, assetsUrl: string, config: PageConfig): string {
  const title = `${config.kind === 'cart' ? 'Cart' : 'Checkout'} · ${tenant.name}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(`${assetsUrl}/embedded.css`)}">
<script type="module" src="${escapeHtml(`${assetsUrl}/page.js`)}"></script>
</head><body><main id="app"></main>
<script type="application/json" id="ep-config">${inertJson(config)}</script>
</body></html>
`;
}

const ERRORS = {
  404: ['Page not found', 'This page link is not valid. Ask the assistant that showed it for a new one.'],
  410: ['Page expired', 'This page link has expired. Ask the assistant that showed it for a new one.'],
} as const;

/** Sends a page with the headers every embedded page carries. */
export function sendPage(
  reply: FastifyReply,
  status: 200 | 404 | 410,
  html: string,
  hostOrigins: readonly string[] | undefined,
): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .headers({
      'content-security-policy': contentSecurityPolicy(hostOrigins),
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-robots-tag': 'noindex',
      'cache-control': 'no-store',
    })
    .send(html);
}

export function errorPage(status: 404 | 410): string {
  const [title, text] = ERRORS[status];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>${text}</p></main></body></html>
`;
}
