/**
 * The page oidc-provider shows for an authorization request it cannot redirect back (an unknown
 * client, a redirect URI that does not match): plain, no script. It is the authorization server's
 * own (its `renderError`); the federated callback shows it too.
 */
import { escapeHtml, PAGE_STYLE, PAGE_STYLE_HASH } from './page-style.js';

export function renderErrorPage(error: string, description: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in request refused</title>
<style>${PAGE_STYLE}</style></head>
<body><main><h1>This sign-in request cannot be completed</h1>
<p class="error" role="alert">${escapeHtml(description ?? error)}</p>
<p class="muted">Go back to the assistant that sent you here and start again. (${escapeHtml(error)})</p></main></body>
</html>`;
}

export const ERROR_PAGE_CSP = `default-src 'none'; style-src ${PAGE_STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'`;
