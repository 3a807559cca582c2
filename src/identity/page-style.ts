/**
 * The look the buyer's sign-in pages share: one style sheet, allowed by its hash in each page's
 * CSP (no inline style otherwise, no script), a light and a dark scheme. The authorization
 * server's error and sign-out pages (error-page.ts, logout-pages.ts) and the gateway's login and
 * consent page use it, and HTML escaping for what they show.
 */
import { createHash } from 'node:crypto';

export const PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#fafaf7;--fg:#1d1d1b;--muted:#5b5b57;--line:#c9c9c2;--accent:#1f5f3f;--on-accent:#fff;--error:#a1261b}
@media (prefers-color-scheme:dark){:root{--bg:#151614;--fg:#ecece6;--muted:#b3b3aa;--line:#4a4a45;
--accent:#7cc59b;--on-accent:#0f1a14;--error:#ff9c8f}}
*{box-sizing:border-box}body{margin:0;font:1rem/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:28rem;margin:3rem auto;padding:0 1.25rem}h1{font-size:1.5rem;margin:0 0 .25rem}
p{margin:.5rem 0}.muted{color:var(--muted)}ul{padding-left:1.25rem}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{width:100%;padding:.6rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--line);border-radius:.4rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.7rem;font:inherit;font-weight:600;border-radius:.4rem;border:1px solid var(--accent);cursor:pointer}
button[value=allow],button[value=yes]{background:var(--accent);color:var(--on-accent)}
button[value=deny]{background:transparent;color:var(--fg)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--error);font-weight:600}.sub{font-size:1rem;margin:1rem 0 0}
a.federated{display:block;margin-top:1.5rem;padding:.7rem;text-align:center;font-weight:600;border-radius:.4rem;
background:var(--accent);color:var(--on-accent);text-decoration:none}
`;

/** The style sheet as a CSP `style-src` source. */
export const PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
