/**
 * The buyer's login and consent page: server-rendered, no script, a strict CSP (its one style
 * sheet by hash; forms post to itself and may be redirected only to the client's redirect URI),
 * labelled fields, a light and a dark scheme, the store's name and the scopes in plain words.
 */
import { createHash } from 'node:crypto';
import { SCOPE_WORDS } from './scopes.js';

const STYLE = `
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
button[value=allow]{background:var(--accent);color:var(--on-accent)}button[value=deny]{background:transparent;color:var(--fg)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--error);font-weight:600}.sub{font-size:1rem;margin:1rem 0 0}
a.federated{display:block;margin-top:1.5rem;padding:.7rem;text-align:center;font-weight:600;border-radius:.4rem;
background:var(--accent);color:var(--on-accent);text-decoration:none}
`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface LoginPage {
  storeName: string;
  /** The platform asking: its client name, else its client id. */
  platform: string;
  scopes: readonly string[];
  /** Where the form posts (this page's own path). */
  action: string;
  email?: string;
  error?: string;
  /** The store checks email and password itself (the adapter's customer login). */
  password: boolean;
  /** The store's OpenID Connect provider: "Sign in with <label>", a link to `href`. */
  federated?: { label: string; href: string };
}

/** The CSP: `redirectOrigin` is where the authorization answer goes after the form posts. */
export function loginPageCsp(redirectOrigin: string | undefined): string {
  const formAction = ["'self'", ...(redirectOrigin ? [redirectOrigin] : [])].join(' ');
  return `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function renderLoginPage(page: LoginPage): string {
  const store = escape(page.storeName);
  const platform = escape(page.platform);
  const scopes = page.scopes.map((s) => `<li>${escape(SCOPE_WORDS[s] ?? s)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sign in to ${store}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Sign in to ${store}</h1>
<p class="muted">${platform} asks to link your ${store} account.</p>
${page.error ? `<p class="error" role="alert">${escape(page.error)}</p>` : ''}
<h2 class="muted sub">If you allow it, ${platform} may:</h2>
<ul>${scopes || '<li>Know that you have an account here</li>'}</ul>
${page.federated ? federatedLink(page.federated, page.password) : ''}
${page.password ? passwordForm(page) : cancelForm(page.action)}
<p class="muted">You can remove the link at any time in ${platform}; ${store} never shares your password.</p>
</main>
</body>
</html>`;
}

/** The store's own sign-in: a plain link (no script, and no form whose redirect the CSP would have to allow). */
function federatedLink(federated: { label: string; href: string }, alsoPassword: boolean): string {
  return `<a class="federated" href="${escape(federated.href)}">Sign in with ${escape(federated.label)} and allow</a>${
    alsoPassword ? '\n<p class="muted">Or sign in with your email and password:</p>' : ''
  }`;
}

function passwordForm(page: LoginPage): string {
  return `<form method="post" action="${escape(page.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required
 value="${escape(page.email ?? '')}"${page.error ? ' aria-invalid="true"' : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions">
<button type="submit" name="action" value="allow">Sign in and allow</button>
<button type="submit" name="action" value="deny" formnovalidate>Cancel</button>
</div>
</form>`;
}

/** Without a password form, declining still answers the platform (access_denied). */
function cancelForm(action: string): string {
  return `<form method="post" action="${escape(action)}">
<div class="actions"><button type="submit" name="action" value="deny">Cancel</button></div>
</form>`;
}

/** oidc-provider's error page (a bad authorization request that cannot be redirected back): plain, no script. */
export function renderErrorPage(error: string, description: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in request refused</title>
<style>${STYLE}</style></head>
<body><main><h1>This sign-in request cannot be completed</h1>
<p class="error" role="alert">${escape(description ?? error)}</p>
<p class="muted">Go back to the assistant that sent you here and start again. (${escape(error)})</p></main></body>
</html>`;
}

export const ERROR_PAGE_CSP = `default-src 'none'; style-src ${STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'`;
