/**
 * The console's page frame: one style sheet allowed by its hash in the page's CSP (no script, no
 * remote asset, no inline style otherwise), readable from a phone's 375 px up, light and dark.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../identity/page-style.js';

export { escapeHtml as html };

const STYLE = `
:root{color-scheme:light dark;--bg:#f7f7f4;--fg:#1c1c1a;--muted:#5d5d58;--line:#d0d0c8;--ok:#1f6b3f;--warn:#8a5a00;
--bad:#b0261b;--card:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#141513;--fg:#ecece6;--muted:#b0b0a8;--line:#43433e;--ok:#7cc59b;
--warn:#e7b85a;--bad:#ff9c8f;--card:#1d1e1b}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;
border-bottom:1px solid var(--line)}
header a{color:inherit;text-decoration:none;font-weight:700}main{padding:1rem;max-width:72rem;margin:0 auto}
h1{font-size:1.3rem;margin:.25rem 0 1rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(19rem,1fr));gap:.75rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:.75rem}
.card h2{margin:0 0 .25rem;font-size:1.05rem}.card h2 a{color:inherit}
dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .75rem;margin:.5rem 0}dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.muted{color:var(--muted)}.state-closed,.ok{color:var(--ok);font-weight:600}
.state-half_open,.warn{color:var(--warn);font-weight:600}
.state-open,.state-isolated,.bad{color:var(--bad);font-weight:600}
svg.spark{display:block;width:100%;max-width:15rem;height:2rem}svg.spark .lat{fill:none;stroke:currentColor;stroke-width:1.5}
svg.spark .err{fill:var(--bad)}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.35rem .4rem;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
th{color:var(--muted);font-weight:600}.scroll{overflow-x:auto}
form.inline{display:inline}
button{font:inherit;padding:.35rem .7rem;border-radius:.35rem;border:1px solid var(--fg);background:transparent;
color:inherit;cursor:pointer;min-height:2.2rem}
button.primary{background:var(--fg);color:var(--bg)}
input{font:inherit;padding:.4rem;border:1px solid var(--line);border-radius:.35rem;background:transparent;color:inherit;
width:100%;max-width:22rem}
.notice{padding:.6rem .8rem;border-radius:.4rem;border:1px solid var(--line);margin:0 0 1rem}
.notice.bad{border-color:var(--bad)}
@media (max-width:40rem){.stack thead{display:none}.stack tr{display:block;padding:.5rem 0;border-bottom:1px solid var(--line)}
.stack td{display:block;border:0;padding:.1rem 0}.stack td:empty{display:none}}code{overflow-wrap:anywhere}
:focus-visible{outline:3px solid var(--ok);outline-offset:2px}
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const CSP = ["default-src 'none'", `style-src ${STYLE_HASH}`, "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"].join('; ');

/** "3 min ago" from epoch ms, for times the person on call reads at a glance (the exact time in its title). */
export function ago(at: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  const text =
    seconds < 90 ? `${seconds} s ago` : seconds < 5400 ? `${Math.round(seconds / 60)} min ago` : `${Math.round(seconds / 3600)} h ago`;
  return `<time datetime="${new Date(at).toISOString()}" title="${new Date(at).toISOString()}">${text}</time>`;
}

/** A table whose rows stack on a phone's screen (a card per row); `rows` are already HTML. */
export function table(name: string, headers: readonly string[], rows: readonly string[]): string {
  const head = headers.map((h) => `<th>${h}</th>`).join('');
  return `<div class="scroll"><table class="${name} stack"><thead><tr>${head}</tr></thead>
<tbody>${rows.join('')}</tbody></table></div>`;
}

/** A table row of cells that are already HTML. */
export const row = (cells: readonly string[], attributes = '') => `<tr${attributes}>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;

export interface Frame {
  title: string;
  /** Who is signed in, if anyone (the header offers sign-in otherwise). */
  operator?: string;
  /** The CSRF token of the signed-in session, for the sign-out form. */
  csrf?: string;
  notice?: { text: string; bad?: boolean };
  body: string;
}

function signedIn({ operator, csrf }: Frame): string {
  if (!operator) return '<a href="/console/sign-in">Sign in to act</a>';
  return `<span>Signed in as <strong>${escapeHtml(operator)}</strong></span>
<form class="inline" method="post" action="/console/sign-out">
<input type="hidden" name="csrf" value="${escapeHtml(csrf ?? '')}"><button>Sign out</button></form>`;
}

export function sendPage(reply: FastifyReply, frame: Frame, status = 200): FastifyReply {
  const notice = frame.notice && `<p class="notice${frame.notice.bad ? ' bad' : ''}" role="status">${escapeHtml(frame.notice.text)}</p>`;
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(frame.title)} · operator console</title><style>${STYLE}</style></head>
<body><header><a href="/console">Operator console</a><div>${signedIn(frame)}</div></header>
<main>${notice ?? ''}${frame.body}</main></body></html>`;
  return reply
    .code(status)
    .header('content-security-policy', CSP)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(page);
}
