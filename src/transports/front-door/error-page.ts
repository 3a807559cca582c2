/**
 * What the buyer sees when the store behind the front door does not answer: a small HTML page
 * (502, or 504 when it ran out of time), never the gateway's JSON error shape, which is for agents.
 */
import type { FastifyReply } from 'fastify';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const MESSAGES = {
  502: { title: 'The store is not answering', body: 'could not be reached just now. Please try again in a moment.' },
  504: { title: 'The store is taking too long', body: 'did not answer in time. Please try again in a moment.' },
  508: { title: 'The store is misconfigured', body: 'points back at this gateway. The store owner needs to fix its address.' },
} as const;

export type StorefrontFailure = keyof typeof MESSAGES;

function errorPage(status: StorefrontFailure, storeName: string, requestId: string): string {
  const { title, body } = MESSAGES[status];
  const name = escapeHtml(storeName);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - ${name}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}}small{color:#888}</style>
</head><body><h1>${title}</h1><p>${name} ${body}</p><p><small>Error ${status} · reference ${escapeHtml(requestId)}</small></p></body></html>
`;
}

/** Replaces whatever the store's answer had set (a bad status arrives after its headers were copied). */
export function sendErrorPage(reply: FastifyReply, status: StorefrontFailure): void {
  for (const name of Object.keys(reply.getHeaders())) if (name !== 'request-id') reply.removeHeader(name);
  void reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(errorPage(status, reply.request.tenant?.name ?? 'The store', reply.request.id));
}

/** reply-from's errors carry 504 for every kind of timeout; anything else is a store that did not answer. */
export const failureOf = (error: Error): StorefrontFailure => ((error as { statusCode?: number }).statusCode === 504 ? 504 : 502);
