/**
 * A tenant's OAuth 2.0 authorization server (identity linking, upstream identity-linking.md):
 * oidc-provider with issuer = the tenant's base URL, state in the gateway's store, signing keys
 * from the tenant's keyring. Authorization code with PKCE S256 only, `iss` in every authorization
 * response, exact redirect URIs (the loopback port exception is oidc-provider's, for native
 * clients), revocation, client credentials for confidential platforms. Access tokens are opaque
 * and looked up on every call, so revoking a grant ends them at once. oidc-provider's setup is
 * provider-configuration.ts; this class is what the gateway calls: hand a request over, finish or
 * refuse a login, verify a token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import Provider from 'oidc-provider';
import type { AuthenticatedCustomer } from '../../adapters/contract.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import type { IssuedPrincipal, OwnAuthorizationServer } from '../security/auth/own-authorization-server.js';
import type { Keyring } from '../security/keyring.js';
import type { StateStore } from '../state/store.js';
import type { FederatedLogin } from './federated-login.js';
import { LoginAttempts } from './login-attempts.js';
import { providerConfiguration, tokenLifetimes } from './provider-configuration.js';
import { linkingScopes } from './scopes.js';

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
    this.profiles = new Map((linking.clients ?? []).map((c) => [c.client_id, c.profile]));
    this.store = store;
    this.refreshTtlMs = tokenLifetimes(linking).refresh * 1000;
    this.emailKey = (customerId) => `oidc:${config.id}:verified-email:${customerId}`;
    const configuration = providerConfiguration({
      tenantId: config.id,
      baseUrl,
      key,
      linking,
      scopes: this.scopes,
      store,
      emailOf: async (customerId) => (await store.get<string>(this.emailKey(customerId)))?.value,
      where,
      baseDir: dirname(file),
      env,
    });
    const limits = linking.login_attempts;
    this.attempts = new LoginAttempts(
      store,
      config.id,
      limits && { perAccount: limits.per_account, perAddress: limits.per_address, windowMs: limits.window_seconds * 1000 },
    );
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
