/**
 * The pages of signing out of a tenant's authorization server (oidc-provider's RP-initiated
 * logout): the question, with oidc-provider's form (its CSRF token) and one button, the page after,
 * and the page for a browser with no one signed in. Plain, no script, nothing from another origin,
 * with the login page's headers: signing out happens only when the buyer presses the button.
 */
import { escapeHtml, PAGE_STYLE, PAGE_STYLE_HASH } from './page-style.js';

/** The login page's headers, its form-action kept to this origin. */
export const LOGOUT_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'none'",
    `style-src ${PAGE_STYLE_HASH}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head>
<body><main>${body}</main></body>
</html>`;
}

/** `form`: oidc-provider's form (its action and CSRF token, no button): the button here submits it. */
export function renderLogoutQuestion(form: string): string {
  return page(
    'Sign out?',
    `<h1>Sign out?</h1>
<p class="muted">Signing out ends your sign-in on this browser and removes the links to assistants you allowed while signed in.</p>
${form}
<div class="actions"><button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button></div>
<p class="muted">To stay signed in, close this window.</p>`,
  );
}

export function renderSignedOut(): string {
  return page('Signed out', '<h1>Signed out</h1>\n<p class="muted">You can close this window.</p>');
}

export function renderNotSignedIn(storeName: string): string {
  const store = escapeHtml(storeName);
  return page(
    'Not signed in',
    `<h1>Not signed in</h1>\n<p class="muted">This browser is not signed in to ${store} here: there is nothing to sign out of.</p>`,
  );
}
