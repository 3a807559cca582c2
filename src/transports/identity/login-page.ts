/**
 * The buyer's login and consent page: server-rendered, no script, a strict CSP (its one style
 * sheet by hash; forms post to itself and may be redirected only to the client's redirect URI),
 * labelled fields, a light and a dark scheme, the store's name and the scopes in plain words.
 */
import { escapeHtml, PAGE_STYLE, PAGE_STYLE_HASH } from '../../identity/page-style.js';
import { SCOPE_WORDS } from '../../identity/scopes.js';

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
  return `default-src 'none'; style-src ${PAGE_STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function renderLoginPage(page: LoginPage): string {
  const store = escapeHtml(page.storeName);
  const platform = escapeHtml(page.platform);
  const scopes = page.scopes.map((s) => `<li>${escapeHtml(SCOPE_WORDS[s] ?? s)}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sign in to ${store}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<h1>Sign in to ${store}</h1>
<p class="muted">${platform} asks to link your ${store} account.</p>
${page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : ''}
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
  return `<a class="federated" href="${escapeHtml(federated.href)}">Sign in with ${escapeHtml(federated.label)} and allow</a>${
    alsoPassword ? '\n<p class="muted">Or sign in with your email and password:</p>' : ''
  }`;
}

function passwordForm(page: LoginPage): string {
  return `<form method="post" action="${escapeHtml(page.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required
 value="${escapeHtml(page.email ?? '')}"${page.error ? ' aria-invalid="true"' : ''}>
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
  return `<form method="post" action="${escapeHtml(action)}">
<div class="actions"><button type="submit" name="action" value="deny">Cancel</button></div>
</form>`;
}
