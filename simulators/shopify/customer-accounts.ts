/**
 * Shopify's customer accounts as an OpenID Connect provider (the Customer Account API's
 * authentication, https://shopify.dev/docs/api/customer/latest#authentication):
 *   GET  /.well-known/openid-configuration         on the shop's own domain ("Discovery endpoints": the
 *                                                  document names the shop's authentication issuer)
 *   GET  /authentication/{shop_id}/oauth/authorize  client_id, response_type=code, redirect_uri, scope
 *                                                  ("openid email customer-account-api:full"), state, nonce,
 *                                                  code_challenge + code_challenge_method=S256 ("For public
 *                                                  clients, we use Proof Key for Code Exchange")
 *   POST /authentication/{shop_id}/oauth/token      grant_type=authorization_code, client_id, redirect_uri,
 *                                                  code, code_verifier (public) or HTTP Basic (confidential);
 *                                                  answers access_token, expires_in, id_token, refresh_token
 *   GET  /authentication/{shop_id}/.well-known/jwks.json   the RS256 keys of the ID tokens
 *   GET  /authentication/{shop_id}/logout           id_token_hint, post_logout_redirect_uri
 * The paths and the discovery fields are those of a live shop's document (issuer
 * https://shopify.com/authentication/<shop_id>, RS256, token_endpoint_auth_methods_supported
 * [client_secret_basic], code_challenge_methods_supported [S256]); here every URL is on the
 * simulator's origin. New customer accounts sign in without a password: the buyer gives an email,
 * Shopify mails a six-digit code, the buyer types it (the simulator's "mailbox" is `codes`). The
 * ID token's `sub` is the customer's GID here (Shopify documents no format for it; a tenant maps
 * whichever claim names the customer). Unpleasant parts kept: codes are single use and expire,
 * a public client without PKCE is refused, redirect URIs must be registered exactly.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { StoreData } from '../../adapters/memory/model.js';
import { text } from '../request-text.js';
import { gid } from './graph.js';

export interface CustomerAccountClient {
  clientId: string;
  /** Confidential clients authenticate at the token endpoint with HTTP Basic; public ones need PKCE. */
  clientSecret?: string;
  redirectUris: string[];
  logoutUris?: string[];
}

/** A fault the next ID token carries (tests of the relying party's checks). */
export type IdTokenFault = 'aud' | 'iss' | 'nonce' | 'exp' | 'signature';

interface PendingLogin {
  clientId: string;
  redirectUri: string;
  state: string;
  nonce?: string;
  challenge?: string;
  scope: string;
  email?: string;
  code?: string;
  codeExpires?: number;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  nonce?: string;
  scope: string;
  customerId: string;
  email: string;
  expires: number;
}

const CODE_TTL_MS = 60_000;
const LOGIN_CODE_TTL_MS = 10 * 60_000;
const ACCESS_TTL_SECONDS = 7200;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(JSON.stringify(body));
}

function html(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Log in</title></head><body>${body}</body></html>`);
}

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 302;
  res.setHeader('location', location);
  res.end();
}

export class CustomerAccounts {
  /** The simulated inbox: the last login code mailed to each address. */
  readonly codes = new Map<string, string>();
  private readonly clients = new Map<string, CustomerAccountClient>();
  private readonly pending = new Map<string, PendingLogin>();
  private readonly issuedCodes = new Map<string, IssuedCode>();
  private readonly customers: Map<string, string>;
  private keys: Promise<{ privateKey: CryptoKey; jwk: JWK }> | undefined;
  private fault: IdTokenFault | undefined;

  constructor(
    readonly shopId: string,
    data: StoreData,
    private readonly origin: () => string,
    private readonly now: () => number,
  ) {
    // The demo customers (customers.csv), as Shopify customers: cust_2 is gid://shopify/Customer/1002.
    this.customers = new Map([...data.customerEmails].map(([id, email]) => [email, gid('Customer', 1000 + Number(id.replace(/\D/g, '')))]));
  }

  get issuer(): string {
    return `${this.origin()}/authentication/${this.shopId}`;
  }

  /** The customer GID of a demo customer's email. */
  customerId(email: string): string | undefined {
    return this.customers.get(email.toLowerCase());
  }

  /** Registers an app's Customer Account API client (Shopify admin: Customer Account API > Application setup). */
  registerClient(client: CustomerAccountClient): void {
    this.clients.set(client.clientId, client);
  }

  /** The next ID token carries this fault. */
  injectIdTokenFault(fault: IdTokenFault): void {
    this.fault = fault;
  }

  private signingKey() {
    this.keys ??= (async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const kid = randomBytes(8).toString('hex');
      return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
    })();
    return this.keys;
  }

  /** True when this request was for the customer accounts (answered). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, body: Record<string, unknown> | undefined): Promise<boolean> {
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') return (this.discovery(res), true);
    const prefix = `/authentication/${this.shopId}`;
    if (!url.pathname.startsWith(`${prefix}/`)) return false;
    const path = url.pathname.slice(prefix.length);
    if (req.method === 'GET' && path === '/.well-known/openid-configuration') return (this.discovery(res), true);
    if (req.method === 'GET' && path === '/.well-known/jwks.json') {
      send(res, 200, { keys: [(await this.signingKey()).jwk] });
      return true;
    }
    if (req.method === 'GET' && path === '/oauth/authorize') return (this.authorize(url.searchParams, res), true);
    if (req.method === 'POST' && path === '/login') return (this.login(body ?? {}, res), true);
    if (req.method === 'POST' && path === '/login/code') return (this.verify(body ?? {}, res), true);
    if (req.method === 'POST' && path === '/oauth/token') return (await this.token(req, body ?? {}, res), true);
    if (req.method === 'GET' && path === '/logout') return (this.logout(url.searchParams, res), true);
    return false;
  }

  private discovery(res: ServerResponse): void {
    const issuer = this.issuer;
    send(res, 200, {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      end_session_endpoint: `${issuer}/logout`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
      scopes_supported: ['openid', 'email', 'customer-account-api:full'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
    });
  }

  private authorize(params: URLSearchParams, res: ServerResponse): void {
    const client = this.clients.get(params.get('client_id') ?? '');
    const redirectUri = params.get('redirect_uri') ?? '';
    // An unknown client or redirect is never redirected to: the error is shown on Shopify's page.
    if (!client || !client.redirectUris.includes(redirectUri))
      return html(res, 400, '<h1>Invalid request</h1><p>The redirect URI or client is not registered.</p>');
    const state = params.get('state') ?? '';
    const back = (error: string, description: string) => {
      const target = new URL(redirectUri);
      target.searchParams.set('error', error);
      target.searchParams.set('error_description', description);
      if (state) target.searchParams.set('state', state);
      redirect(res, target.href);
    };
    if (params.get('response_type') !== 'code') return back('unsupported_response_type', 'response_type must be code');
    const scope = params.get('scope') ?? '';
    if (!scope.split(' ').includes('openid')) return back('invalid_scope', 'the openid scope is required');
    const challenge = params.get('code_challenge') ?? undefined;
    if (challenge !== undefined && params.get('code_challenge_method') !== 'S256')
      return back('invalid_request', 'code_challenge_method must be S256');
    if (client.clientSecret === undefined && challenge === undefined) return back('invalid_request', 'PKCE is required for public clients');
    const loginState = randomBytes(16).toString('base64url');
    const nonce = params.get('nonce') ?? undefined;
    this.pending.set(loginState, {
      clientId: client.clientId,
      redirectUri,
      state,
      scope,
      ...(nonce !== undefined && { nonce }),
      ...(challenge !== undefined && { challenge }),
    });
    html(
      res,
      200,
      `<h1>Log in</h1><form method="post" action="/authentication/${this.shopId}/login">` +
        `<input type="hidden" name="login_state" value="${loginState}"><label>Email <input name="email" type="email"></label>` +
        '<button>Continue</button></form>',
    );
  }

  /** The buyer gave an email: a code is "mailed" (to any address; Shopify makes an account for a new one). */
  private login(body: Record<string, unknown>, res: ServerResponse): void {
    const pending = this.pending.get(text(body.login_state));
    const email = text(body.email).trim().toLowerCase();
    if (!pending || !email.includes('@')) return html(res, 400, '<h1>Your session has expired</h1>');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    Object.assign(pending, { email, code, codeExpires: this.now() + LOGIN_CODE_TTL_MS });
    this.codes.set(email, code);
    html(
      res,
      200,
      `<h1>Enter code</h1><p>Sent to ${escapeHtml(email)}</p><form method="post" action="/authentication/${this.shopId}/login/code">` +
        `<input type="hidden" name="login_state" value="${escapeHtml(text(body.login_state))}">` +
        '<label>6-digit code <input name="code" inputmode="numeric"></label><button>Submit</button></form>',
    );
  }

  private verify(body: Record<string, unknown>, res: ServerResponse): void {
    const loginState = text(body.login_state);
    const pending = this.pending.get(loginState);
    if (!pending?.email || !pending.code || (pending.codeExpires ?? 0) < this.now())
      return html(res, 400, '<h1>Your session has expired</h1>');
    if (text(body.code) !== pending.code) return html(res, 401, '<h1>Enter code</h1><p>Wrong code</p>');
    this.pending.delete(loginState);
    let customerId = this.customers.get(pending.email);
    if (customerId === undefined) {
      customerId = gid('Customer', 2000 + this.customers.size);
      this.customers.set(pending.email, customerId);
    }
    const code = randomBytes(24).toString('base64url');
    this.issuedCodes.set(code, {
      clientId: pending.clientId,
      redirectUri: pending.redirectUri,
      scope: pending.scope,
      customerId,
      email: pending.email,
      expires: this.now() + CODE_TTL_MS,
      ...(pending.nonce !== undefined && { nonce: pending.nonce }),
      ...(pending.challenge !== undefined && { challenge: pending.challenge }),
    });
    const target = new URL(pending.redirectUri);
    target.searchParams.set('code', code);
    if (pending.state) target.searchParams.set('state', pending.state);
    redirect(res, target.href);
  }

  private async token(req: IncomingMessage, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const invalid = (error: string, description: string, status = 400) => send(res, status, { error, error_description: description });
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    const clientId = basicId !== undefined ? decodeURIComponent(basicId) : text(body.client_id);
    const client = this.clients.get(clientId);
    if (!client) return invalid('invalid_client', 'Client authentication failed', 401);
    if (client.clientSecret !== undefined && (basicSecret === undefined || decodeURIComponent(basicSecret) !== client.clientSecret))
      return invalid('invalid_client', 'Client authentication failed', 401);
    if (body.grant_type !== 'authorization_code') return invalid('unsupported_grant_type', 'grant_type is not supported');
    const code = text(body.code);
    const issued = this.issuedCodes.get(code);
    this.issuedCodes.delete(code);
    if (!issued || issued.expires < this.now() || issued.clientId !== clientId)
      return invalid('invalid_grant', 'The code is invalid or expired');
    if (body.redirect_uri !== issued.redirectUri) return invalid('invalid_grant', 'redirect_uri does not match');
    if (issued.challenge !== undefined) {
      const verifier = text(body.code_verifier);
      if (createHash('sha256').update(verifier).digest('base64url') !== issued.challenge)
        return invalid('invalid_grant', 'code_verifier does not match');
    }
    send(res, 200, {
      access_token: `shcat_${randomBytes(24).toString('hex')}`,
      expires_in: ACCESS_TTL_SECONDS,
      id_token: await this.idToken(issued),
      refresh_token: `shcrt_${randomBytes(24).toString('hex')}`,
      token_type: 'Bearer',
      scope: issued.scope,
    });
  }

  private async idToken(issued: IssuedCode): Promise<string> {
    const fault = this.fault;
    this.fault = undefined;
    const { privateKey, jwk } = await this.signingKey();
    const now = Math.floor(this.now() / 1000);
    const claims = {
      email: issued.email,
      email_verified: true,
      sid: randomBytes(8).toString('hex'),
      ...(issued.nonce !== undefined && { nonce: fault === 'nonce' ? 'another-nonce' : issued.nonce }),
    };
    const key = fault === 'signature' ? (await generateKeyPair('RS256', { extractable: true })).privateKey : privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'JWT' })
      .setIssuer(fault === 'iss' ? `${this.origin()}/authentication/999` : this.issuer)
      .setAudience(fault === 'aud' ? 'another-client' : issued.clientId)
      .setSubject(issued.customerId)
      .setIssuedAt(fault === 'exp' ? now - 7200 : now)
      .setExpirationTime(fault === 'exp' ? now - 3600 : now + 3600)
      .sign(key);
  }

  private logout(params: URLSearchParams, res: ServerResponse): void {
    const target = params.get('post_logout_redirect_uri');
    const allowed = target !== null && [...this.clients.values()].some((c) => c.logoutUris?.includes(target));
    if (allowed) return redirect(res, target);
    html(res, 200, '<h1>You have been logged out</h1>');
  }
}
