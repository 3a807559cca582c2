/**
 * Identity linking as an agent does it (upstream identity-linking.md, platform side), on
 * openid-client: the business's protected resource metadata (RFC 9728) names its authorization
 * server, whose RFC 8414 metadata the client discovers; then the authorization code flow as a
 * public client: PKCE S256, a loopback redirect on an ephemeral port of 127.0.0.1 (RFC 8252 §7.3),
 * `state` and `iss` checked, the code exchanged; then the buyer's orders read with the token.
 * The access token is returned to the caller, never printed here.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'openid-client';
import { protectedResourceMetadataUrl } from '../src/security/auth/own-authorization-server.js';

export interface LinkOptions {
  /** The tenant's base URL: its protected resource (and, on this gateway, its issuer). */
  gateway: string;
  clientId: string;
  /** The agent's profile URL (PROTO-Agent): the platform the client belongs to. */
  profile: string;
  scope: string;
  /** Orders to read with the buyer's token once linked. */
  orders: readonly string[];
  /** Shown the authorization URL the buyer opens; the flow waits for the redirect. */
  onAuthorizationUrl(url: string): void | Promise<void>;
  /** How long to wait for the buyer (default 10 minutes). */
  timeoutMs?: number;
}

interface OrderRead {
  id: string;
  status: number;
  body: unknown;
}

export interface LinkOutcome {
  issuer: string;
  scope: string;
  /** The buyer's access token: `agent link` prints it only when asked (--print-token). */
  accessToken: string;
  expiresIn?: number;
  orders: OrderRead[];
}

const CALLBACK = '/callback';
const DONE_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Linked</title>
<body><main><h1>You can close this window</h1><p>The agent has the answer and goes on in the terminal.</p></main></body></html>`;

/** RFC 9728: the authorization server that protects `gateway`, after checking the document is about it. */
async function authorizationServerOf(gateway: string): Promise<URL> {
  const url = protectedResourceMetadataUrl(gateway);
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: does this tenant link buyer accounts?`);
  const metadata = (await response.json()) as { resource?: unknown; authorization_servers?: unknown };
  if (typeof metadata.resource !== 'string' || new URL(metadata.resource).href !== new URL(gateway).href)
    throw new Error(`${url} describes ${String(metadata.resource)}, not ${gateway}`);
  const [server] = Array.isArray(metadata.authorization_servers) ? (metadata.authorization_servers as unknown[]) : [];
  if (typeof server !== 'string') throw new Error(`${url} names no authorization server`);
  return new URL(server);
}

/** A one-shot loopback listener for the authorization response; resolves with the URL it was called at. */
async function loopbackRedirect(timeoutMs: number): Promise<{ redirectUri: string; response: Promise<URL>; close(): void }> {
  let server: Server;
  let timer: NodeJS.Timeout;
  const response = new Promise<URL>((resolve, reject) => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      if (req.method !== 'GET' || url.pathname !== CALLBACK) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(DONE_PAGE);
      resolve(url);
    });
    timer = setTimeout(() => reject(new Error(`no sign-in within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  await new Promise<void>((listening, failed) => server!.once('error', failed).listen(0, '127.0.0.1', listening));
  const close = () => {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  };
  return { redirectUri: `http://127.0.0.1:${(server!.address() as AddressInfo).port}${CALLBACK}`, response, close };
}

/** openid-client's refusals in words: the server's OAuth error, else what the check found (its cause). */
function explained(error: unknown): unknown {
  if (error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    return new Error(`the authorization server answered ${error.error}${description}`, { cause: error });
  }
  if (error instanceof oauth.ClientError && error.cause instanceof Error)
    return new Error(`${error.message}: ${error.cause.message}`, { cause: error });
  return error;
}

export async function linkAccount(options: LinkOptions): Promise<LinkOutcome> {
  const issuer = await authorizationServerOf(options.gateway);
  // Plain http only to a loopback gateway (a developer's own); anything else must be https.
  const local = ['127.0.0.1', '[::1]', 'localhost'].includes(issuer.hostname);
  const config = await oauth.discovery(issuer, options.clientId, undefined, oauth.None(), {
    algorithm: 'oauth2',
    ...(local && { execute: [oauth.allowInsecureRequests] }),
  });
  const metadata = config.serverMetadata();
  if (!metadata.code_challenge_methods_supported?.includes('S256'))
    throw new Error(`${metadata.issuer} does not offer PKCE S256; the agent links only with it`);

  const redirect = await loopbackRedirect(options.timeoutMs ?? 600_000);
  let tokens: Awaited<ReturnType<typeof oauth.authorizationCodeGrant>>;
  try {
    const verifier = oauth.randomPKCECodeVerifier();
    const state = oauth.randomState();
    const url = oauth.buildAuthorizationUrl(config, {
      redirect_uri: redirect.redirectUri,
      scope: options.scope,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    await options.onAuthorizationUrl(url.href);
    const answer = await redirect.response;
    // Checks state, iss (byte-identical to the metadata's issuer) and an error answer, then exchanges the code.
    tokens = await oauth.authorizationCodeGrant(config, answer, { pkceCodeVerifier: verifier, expectedState: state });
  } catch (error) {
    throw explained(error);
  } finally {
    redirect.close();
  }

  const orders: OrderRead[] = [];
  for (const id of options.orders) {
    const url = new URL(`${options.gateway.replace(/\/$/, '')}/orders/${encodeURIComponent(id)}`);
    const headers = new Headers({ 'proto-agent': `profile="${options.profile}"`, 'request-id': randomUUID(), accept: 'application/json' });
    const response = await oauth.fetchProtectedResource(config, tokens.access_token, url, 'GET', undefined, headers);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    orders.push({ id, status: response.status, body });
  }
  return {
    issuer: metadata.issuer,
    scope: tokens.scope ?? options.scope,
    accessToken: tokens.access_token,
    ...(tokens.expires_in !== undefined && { expiresIn: tokens.expires_in }),
    orders,
  };
}
