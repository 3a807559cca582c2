/**
 * A tenant's OAuth 2.0 authorization server (identity linking, upstream identity-linking.md):
 * oidc-provider with issuer = the tenant's base URL, state in the gateway's store, signing keys
 * from the tenant's keyring. Authorization code with PKCE S256 only, `iss` in every authorization
 * response, exact redirect URIs (the loopback port exception is oidc-provider's, for native
 * clients), revocation, client credentials for confidential platforms. Access tokens are opaque
 * and looked up on every call, so revoking a grant ends them at once.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import Provider, { errors, type ClientMetadata, type Configuration } from 'oidc-provider';
import type { AuthenticatedCustomer } from '../../adapters/contract.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { resolveSecret } from '../config/secrets.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import type { IssuedPrincipal, OwnAuthorizationServer } from '../security/auth/own-authorization-server.js';
import type { Keyring } from '../security/keyring.js';
import type { StateStore } from '../state/store.js';
import { LoginAttempts } from './login-attempts.js';
import type { FederatedLogin } from './federated-login.js';
import { ERROR_PAGE_CSP, renderErrorPage } from './error-page.js';
import { linkingScopes } from './scopes.js';
import { storeAdapter } from './store-adapter.js';

type LinkingConfig = NonNullable<TenantConfig['identity_linking']>;
type ClientConfig = NonNullable<LinkingConfig['clients']>[number];

export const OAUTH_PATH = '/oauth2';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

export interface AuthorizationServerOptions {
  config: TenantConfig;
  baseUrl: string;
  keyring: Keyring;
  store: StateStore;
  file: string;
  env: NodeJS.ProcessEnv;
  /** The store's OpenID Connect provider, when the tenant configures one. */
  federated?: FederatedLogin;
}

/** What a verified access token of this server says. */
export type IssuedToken =
  | { kind: 'buyer'; customerId: string; email?: string; clientId: string; profileUrl: string; scopes: string[] }
  | { kind: 'platform'; clientId: string; profileUrl: string };

function clientMetadata(client: ClientConfig, where: string, baseDir: string, env: NodeJS.ProcessEnv): ClientMetadata {
  const method = client.auth_method ?? 'none';
  const redirects = client.redirect_uris ?? [];
  if (method === 'none') {
    if (redirects.length === 0) throw new ConfigError(`${where}.redirect_uris: a public client needs at least one`);
    for (const uri of redirects) {
      const url = new URL(uri);
      // Native clients may use plain http only on the loopback addresses RFC 8252 §7.3 names (not "localhost").
      if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
        throw new ConfigError(`${where}.redirect_uris: ${uri}: plain http only on 127.0.0.1 or [::1]`);
    }
  }
  if (method === 'private_key_jwt' && !client.jwks === !client.jwks_uri)
    throw new ConfigError(`${where}.jwks: private_key_jwt needs the platform's public keys: jwks or jwks_uri, one of them`);
  if (method === 'client_secret_basic' && !client.client_secret)
    throw new ConfigError(`${where}.client_secret: client_secret_basic needs a secret reference`);
  const interactive = redirects.length > 0;
  return {
    client_id: client.client_id,
    profile: client.profile,
    ...(client.name !== undefined && { client_name: client.name }),
    token_endpoint_auth_method: method,
    // A public agent is a native application: loopback redirects match whatever the port.
    application_type: method === 'none' ? 'native' : 'web',
    redirect_uris: redirects,
    response_types: interactive ? ['code'] : [],
    grant_types: [...(interactive ? ['authorization_code', 'refresh_token'] : []), ...(method === 'none' ? [] : ['client_credentials'])],
    ...(client.jwks && { jwks: client.jwks }),
    ...(client.jwks_uri && { jwks_uri: client.jwks_uri }),
    ...(client.client_secret && { client_secret: resolveSecret(client.client_secret, `${where}.client_secret`, baseDir, env) }),
  };
}

export class AuthorizationServer implements OwnAuthorizationServer {
  readonly issuer: string;
  /** The resource the tokens are for (`aud`): the tenant's protocol endpoint, its base URL. */
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly provider: Provider;
  /** Failed logins per account and per address (brute-force limits). */
  readonly attempts: LoginAttempts;
  readonly federated: FederatedLogin | undefined;
  private readonly profiles: ReadonlyMap<string, string>;
  private readonly store: StateStore;
  private readonly emailKey: (customerId: string) => string;
  private readonly refreshTtlMs: number;

  constructor({ config, baseUrl, keyring, store, file, env, federated }: AuthorizationServerOptions) {
    const where = `${file}: $.identity_linking`;
    const key = keyring.active;
    if (!key) throw new ConfigError(`${where}: the authorization server signs with the tenant's key; configure $.signing.keys`);
    const linking = config.identity_linking ?? {};
    this.issuer = baseUrl;
    this.resource = baseUrl;
    this.scopes = linkingScopes(config);
    this.federated = federated;
    const clients = (linking.clients ?? []).map((c, i) => clientMetadata(c, `${where}.clients[${i}]`, dirname(file), env));
    this.profiles = new Map((linking.clients ?? []).map((c) => [c.client_id, c.profile]));
    const limits = linking.login_attempts;
    this.attempts = new LoginAttempts(
      store,
      config.id,
      limits && { perAccount: limits.per_account, perAddress: limits.per_address, windowMs: limits.window_seconds * 1000 },
    );
    const accessTtl = linking.access_token_ttl_seconds ?? 3600;
    const refreshTtl = linking.refresh_token_ttl_seconds ?? 30 * 24 * 3600;
    this.store = store;
    this.refreshTtlMs = refreshTtl * 1000;
    this.emailKey = (customerId) => `oidc:${config.id}:verified-email:${customerId}`;
    const emailOf = async (customerId: string) => (await store.get<string>(this.emailKey(customerId)))?.value;
    const privateJwk = { ...key.privateKey.export({ format: 'jwk' }), kid: key.kid, alg: key.publicJwk.alg, use: 'sig' };
    // Cookie signing keys derived from the signing key: the same on every replica sharing it.
    const cookieKey = createHmac('sha256', key.privateKey.export({ format: 'der', type: 'pkcs8' }))
      .update('oidc cookies')
      .digest('base64url');
    const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
    const registration = linking.dynamic_registration;
    const initialAccessToken =
      registration &&
      resolveSecret(registration.initial_access_token, `${where}.dynamic_registration.initial_access_token`, dirname(file), env);
    const resource = this.resource;
    const scopes = this.scopes;

    const configuration: Configuration = {
      // oidc-provider dates everything by the process clock, so its store keys do too.
      adapter: storeAdapter(store, `oidc:${config.id}`, Date.now),
      clients,
      // Every client names the platform profile it belongs to (static ones from the tenant file).
      extraClientMetadata: {
        properties: ['profile'],
        validator: (_ctx, key, value) => {
          if (key === 'profile' && !(typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value)))
            throw new errors.InvalidClientMetadata('profile: the platform profile URL (http or https) is required');
        },
      },
      jwks: { keys: [privateJwk] },
      cookies: { keys: [cookieKey] },
      clientAuthMethods: ['none', 'private_key_jwt', 'client_secret_basic'],
      responseTypes: ['code'],
      scopes: ['openid', 'offline_access', ...scopes],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      pkce: { required: () => true },
      enabledJWA: { idTokenSigningAlgValues: [key.publicJwk.alg] },
      clientDefaults: { id_token_signed_response_alg: key.publicJwk.alg, grant_types: ['authorization_code'], response_types: ['code'] },
      renderError: (ctx, out) => {
        ctx.type = 'html';
        ctx.set('content-security-policy', ERROR_PAGE_CSP);
        ctx.body = renderErrorPage(String(out.error), typeof out.error_description === 'string' ? out.error_description : undefined);
      },
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      // The email the store verified at login travels with each access token (orders are matched on it).
      extraTokenClaims: async (_ctx, token) => {
        const email = 'accountId' in token && token.accountId !== undefined ? await emailOf(token.accountId) : undefined;
        return email === undefined ? undefined : { email };
      },
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      interactions: { url: (_ctx, interaction) => `${basePath}${OAUTH_PATH}/interaction/${interaction.uid}` },
      routes: {
        authorization: `${OAUTH_PATH}/authorize`,
        token: `${OAUTH_PATH}/token`,
        revocation: `${OAUTH_PATH}/revoke`,
        jwks: `${OAUTH_PATH}/jwks`,
        userinfo: `${OAUTH_PATH}/userinfo`,
        end_session: `${OAUTH_PATH}/logout`,
        introspection: `${OAUTH_PATH}/introspect`,
        pushed_authorization_request: `${OAUTH_PATH}/par`,
        registration: `${OAUTH_PATH}/register`,
      },
      ttl: {
        AccessToken: accessTtl,
        ClientCredentials: accessTtl,
        AuthorizationCode: 60,
        RefreshToken: refreshTtl,
        Grant: refreshTtl,
        Interaction: 600,
        Session: 3600,
        IdToken: 600,
      },
      features: {
        devInteractions: { enabled: false },
        // A client revokes only its own tokens, authenticated as at the token endpoint.
        revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
        clientCredentials: { enabled: true },
        registration: initialAccessToken === undefined ? { enabled: false } : { enabled: true, initialAccessToken },
        userinfo: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget();
            return { scope: scopes.join(' '), audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: accessTtl };
          },
        },
      },
    };
    this.provider = new Provider(this.issuer, configuration);
    this.provider.proxy = true; // the forwarded headers are the ones the mount sets from the base URL
  }

  /** The platform profile URL a client belongs to (from the tenant file). */
  profileOf(clientId: string): string | undefined {
    return this.profiles.get(clientId);
  }

  /** The profile of a client from the tenant file or registered dynamically. */
  private async profileFor(clientId: string): Promise<string | undefined> {
    const known = this.profiles.get(clientId);
    if (known !== undefined) return known;
    const client = await this.provider.Client.find(clientId);
    const profile = (client as { profile?: unknown } | undefined)?.profile;
    return typeof profile === 'string' ? profile : undefined;
  }

  /** Hands a request to oidc-provider (its path relative to the tenant's base URL). */
  handle(req: IncomingMessage, res: ServerResponse, path: string): void {
    const base = new URL(this.issuer);
    req.url = path;
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = base.pathname.replace(/\/$/, '') + path;
    // Whatever the caller sent: the URLs the provider writes follow the tenant's base URL.
    req.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = base.host;
    void this.provider.callback()(req, res);
  }

  /** The buyer logged in and allowed the request: records the grant and resumes the authorization. */
  async finishLogin(
    req: IncomingMessage,
    res: ServerResponse,
    customer: Pick<AuthenticatedCustomer, 'customerId'> & { email?: string | undefined },
  ): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    const clientId = String(details.params.client_id);
    const requested = typeof details.params.scope === 'string' ? details.params.scope.split(' ') : [];
    // A federated provider may vouch for no email: then orders match on the customer id alone.
    if (customer.email !== undefined) await this.store.set(this.emailKey(customer.customerId), customer.email, this.refreshTtlMs);
    else await this.store.delete(this.emailKey(customer.customerId));
    const grant = new this.provider.Grant({ accountId: customer.customerId, clientId });
    const granted = requested.filter((s) => this.scopes.includes(s));
    if (granted.length > 0) grant.addResourceScope(this.resource, granted.join(' '));
    // The linking scopes are in the provider's `scopes` too (for scopes_supported), so the grant holds them there as well.
    const known = requested.filter((s) => granted.includes(s) || s === 'openid' || s === 'offline_access');
    if (known.length > 0) grant.addOIDCScope(known.join(' '));
    const grantId = await grant.save();
    await this.provider.interactionFinished(
      req,
      res,
      { login: { accountId: customer.customerId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  async deny(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the buyer did not allow the link' },
      { mergeWithLastSubmission: false },
    );
  }

  async principalOf(token: string): Promise<IssuedPrincipal | undefined> {
    const issued = await this.verify(token);
    if (!issued) return undefined;
    return issued.kind === 'buyer'
      ? {
          kind: 'buyer',
          buyerId: issued.customerId,
          scopes: issued.scopes,
          profileUrl: issued.profileUrl,
          ...(issued.email !== undefined && { email: issued.email }),
        }
      : { kind: 'platform', profileUrl: issued.profileUrl, via: 'oauth' };
  }

  /** The token's holder, or undefined when this server did not issue it, it expired or was revoked. */
  async verify(token: string): Promise<IssuedToken | undefined> {
    const access = await this.provider.AccessToken.find(token);
    if (access) {
      const { accountId, clientId, aud } = access;
      if (aud !== this.resource && !(Array.isArray(aud) && aud.includes(this.resource))) return undefined;
      const profileUrl = clientId === undefined ? undefined : await this.profileFor(clientId);
      if (profileUrl === undefined || clientId === undefined || accountId === undefined) return undefined;
      const email = typeof access.extra?.email === 'string' ? access.extra.email : undefined;
      return {
        kind: 'buyer',
        customerId: accountId,
        ...(email !== undefined && { email }),
        clientId,
        profileUrl,
        scopes: [...access.scopes],
      };
    }
    const own = await this.provider.ClientCredentials.find(token);
    const clientId = own?.clientId;
    const profileUrl = clientId === undefined ? undefined : await this.profileFor(clientId);
    return clientId !== undefined && profileUrl !== undefined ? { kind: 'platform', clientId, profileUrl } : undefined;
  }
}
