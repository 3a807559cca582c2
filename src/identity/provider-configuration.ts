/**
 * oidc-provider set up as one tenant's authorization server (authorization-server.ts), in the
 * parts the server is built from: the clients of the tenant file, the keys derived from the
 * tenant's signing key, the routes under /oauth2, token lifetimes, and the features turned on.
 */
import { createHmac } from 'node:crypto';
import { errors, type ClientMetadata, type Configuration } from 'oidc-provider';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { resolveSecret } from '../config/secrets.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import type { SigningKey } from '../security/keyring.js';
import type { StateStore } from '../state/store.js';
import { ERROR_PAGE_CSP, renderErrorPage } from './error-page.js';
import { LOGOUT_PAGE_HEADERS, renderLogoutQuestion, renderSignedOut } from './logout-pages.js';
import { storeAdapter } from './store-adapter.js';

export type LinkingConfig = NonNullable<TenantConfig['identity_linking']>;
type ClientConfig = NonNullable<LinkingConfig['clients']>[number];

/** Where the authorization server is mounted, below the tenant's base URL. */
export const OAUTH_PATH = '/oauth2';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

const ROUTES: Configuration['routes'] = {
  authorization: `${OAUTH_PATH}/authorize`,
  token: `${OAUTH_PATH}/token`,
  revocation: `${OAUTH_PATH}/revoke`,
  jwks: `${OAUTH_PATH}/jwks`,
  userinfo: `${OAUTH_PATH}/userinfo`,
  end_session: `${OAUTH_PATH}/logout`,
  introspection: `${OAUTH_PATH}/introspect`,
  pushed_authorization_request: `${OAUTH_PATH}/par`,
  registration: `${OAUTH_PATH}/register`,
};

export interface ProviderSettings {
  tenantId: string;
  /** The issuer, and the resource its tokens are for. */
  baseUrl: string;
  key: SigningKey;
  linking: LinkingConfig;
  /** The linking scopes the tenant offers (scopes.ts). */
  scopes: readonly string[];
  store: StateStore;
  /** The email the store verified for a customer at login, if any. */
  emailOf: (customerId: string) => Promise<string | undefined>;
  /** Where the tenant file's errors point (`file: $.identity_linking`) and its secrets are resolved from. */
  where: string;
  baseDir: string;
  env: NodeJS.ProcessEnv;
}

/** Token lifetimes in seconds: the tenant file's, else an hour for access and thirty days for refresh. */
export function tokenLifetimes(linking: LinkingConfig): { access: number; refresh: number } {
  return { access: linking.access_token_ttl_seconds ?? 3600, refresh: linking.refresh_token_ttl_seconds ?? 30 * 24 * 3600 };
}

export function providerConfiguration(settings: ProviderSettings): Configuration {
  const { tenantId, baseUrl, key, linking, scopes, store, emailOf, where, baseDir, env } = settings;
  const clients = (linking.clients ?? []).map((c, i) => clientMetadata(c, `${where}.clients[${i}]`, baseDir, env));
  const registration = linking.dynamic_registration;
  const initialAccessToken =
    registration && resolveSecret(registration.initial_access_token, `${where}.dynamic_registration.initial_access_token`, baseDir, env);
  const lifetimes = tokenLifetimes(linking);
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  return {
    // oidc-provider dates everything by the process clock, so its store keys do too.
    adapter: storeAdapter(store, `oidc:${tenantId}`, Date.now),
    clients,
    ...clientRules(key),
    ...providerKeys(key),
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', ...scopes],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
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
    routes: ROUTES,
    ttl: {
      AccessToken: lifetimes.access,
      ClientCredentials: lifetimes.access,
      AuthorizationCode: 60,
      RefreshToken: lifetimes.refresh,
      Grant: lifetimes.refresh,
      Interaction: 600,
      Session: 3600,
      IdToken: 600,
    },
    features: features(baseUrl, scopes, lifetimes.access, initialAccessToken),
  };
}

/** A client of the tenant file as oidc-provider's metadata, refused when its redirects or credentials cannot work. */
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

/** What every client is, static or registered: it names its platform profile, authenticates one of three ways, uses codes. */
function clientRules(key: SigningKey): Pick<Configuration, 'extraClientMetadata' | 'clientAuthMethods' | 'clientDefaults'> {
  return {
    // Every client names the platform profile it belongs to (static ones from the tenant file).
    extraClientMetadata: {
      properties: ['profile'],
      validator: (_ctx, name, value) => {
        if (name === 'profile' && !(typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value)))
          throw new errors.InvalidClientMetadata('profile: the platform profile URL (http or https) is required');
      },
    },
    clientAuthMethods: ['none', 'private_key_jwt', 'client_secret_basic'],
    clientDefaults: { id_token_signed_response_alg: key.publicJwk.alg, grant_types: ['authorization_code'], response_types: ['code'] },
  };
}

/** The provider signs with the tenant's key; its cookie keys derive from it, so every replica sharing the key shares them. */
function providerKeys(key: SigningKey): Pick<Configuration, 'jwks' | 'cookies' | 'enabledJWA'> {
  const privateJwk = { ...key.privateKey.export({ format: 'jwk' }), kid: key.kid, alg: key.publicJwk.alg, use: 'sig' };
  const cookieKey = createHmac('sha256', key.privateKey.export({ format: 'der', type: 'pkcs8' }))
    .update('oidc cookies')
    .digest('base64url');
  return {
    jwks: { keys: [privateJwk] },
    cookies: { keys: [cookieKey] },
    enabledJWA: { idTokenSigningAlgValues: [key.publicJwk.alg] },
  };
}

function features(
  resource: string,
  scopes: readonly string[],
  accessTtl: number,
  initialAccessToken: string | undefined,
): Configuration['features'] {
  return {
    devInteractions: { enabled: false },
    // A client revokes only its own tokens, authenticated as at the token endpoint.
    revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
    clientCredentials: { enabled: true },
    registration: initialAccessToken === undefined ? { enabled: false } : { enabled: true, initialAccessToken },
    userinfo: { enabled: false },
    // Our pages instead of oidc-provider's samples (remote fonts, no CSP). A browser with no one
    // signed in never reaches oidc-provider's self-submitting form: the route answers it (oauth-routes.ts).
    rpInitiatedLogout: {
      enabled: true,
      logoutSource: (ctx, form) => {
        ctx.set(LOGOUT_PAGE_HEADERS);
        ctx.type = 'html';
        ctx.body = renderLogoutQuestion(form);
      },
      postLogoutSuccessSource: (ctx) => {
        ctx.set(LOGOUT_PAGE_HEADERS);
        ctx.type = 'html';
        ctx.body = renderSignedOut();
      },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator) => {
        if (indicator !== resource) throw new errors.InvalidTarget();
        return { scope: scopes.join(' '), audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: accessTtl };
      },
    },
  };
}
