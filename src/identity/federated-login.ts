/**
 * A tenant's federated login source: the buyer signs in at the store's own OpenID Connect
 * provider (Shopify's Customer Account API, a WordPress OIDC plugin, any certified provider), and
 * the identity it vouches for is bound to the grant the gateway's authorization server issues.
 * openid-client does the protocol: discovery, the authorization code flow with PKCE S256, a
 * state and a nonce per attempt, the ID token checked (signature by the provider's JWKS, iss,
 * aud, exp, nonce). What one attempt needs between the redirect and the callback lives in the
 * state store (any replica may receive the callback), once: a callback is honoured a single time.
 */
import { dirname } from 'node:path';
import * as oidc from 'openid-client';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { resolveSecret } from '../config/secrets.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import type { StateStore } from '../state/store.js';

type FederatedConfig = NonNullable<NonNullable<TenantConfig['identity_linking']>['federated']>;

/** Who the provider says signed in: the store's customer id and, when the provider verified it, the email. */
export interface FederatedIdentity {
  customerId: string;
  email?: string;
  /** The provider's subject (`sub`). */
  subject: string;
}

/** One attempt, from the redirect to the provider until its callback. */
interface Attempt {
  uid: string;
  verifier: string;
  nonce: string;
}

/** As long as the interaction it belongs to (oidc-provider's Interaction TTL). */
const ATTEMPT_TTL_MS = 600_000;
const PROVIDER_TIMEOUT_SECONDS = 10;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The provider refused or the answer did not verify; `message` is fit for the buyer's page. */
export class FederatedLoginError extends Error {}

export interface FederatedLoginOptions {
  config: FederatedConfig;
  tenantId: string;
  tenantName: string;
  /** The gateway's callback registered at the provider. */
  redirectUri: string;
  store: StateStore;
  file: string;
  env: NodeJS.ProcessEnv;
}

export class FederatedLogin {
  /** The button's words: "Sign in with <label>". */
  readonly label: string;
  readonly redirectUri: string;
  private readonly issuer: URL;
  private readonly discoveryUrl: URL;
  private readonly scope: string;
  private readonly customerClaim: string;
  private readonly emailClaim: string;
  private readonly clientId: string;
  private readonly clientSecret: string | undefined;
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(private readonly options: FederatedLoginOptions) {
    const { config, file, env } = options;
    const where = `${file}: $.identity_linking.federated`;
    this.issuer = new URL(config.issuer);
    this.discoveryUrl = new URL(config.discovery_url ?? config.issuer);
    for (const [name, url] of [
      ['issuer', this.issuer],
      ['discovery_url', this.discoveryUrl],
    ] as const) {
      // Plain http only to a provider on this machine (a simulator, a local identity server).
      if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
        throw new ConfigError(`${where}.${name}: ${url.href}: https is required (plain http only on a loopback address)`);
    }
    this.label = config.label ?? options.tenantName;
    this.redirectUri = options.redirectUri;
    this.scope = [...new Set(['openid', ...(config.scopes ?? ['email'])])].join(' ');
    this.customerClaim = config.claims?.customer_id ?? 'sub';
    this.emailClaim = config.claims?.email ?? 'email';
    this.clientId = config.client_id;
    this.clientSecret = config.client_secret && resolveSecret(config.client_secret, `${where}.client_secret`, dirname(file), env);
  }

  /** The provider's configuration, discovered once (and again after a failed discovery). */
  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= (async () => {
      const insecure = this.discoveryUrl.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
      const auth = this.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(this.clientSecret);
      const configuration = await oidc.discovery(this.discoveryUrl, this.clientId, this.clientSecret, auth, {
        execute: [...insecure, oidc.enableNonRepudiationChecks],
        timeout: PROVIDER_TIMEOUT_SECONDS,
      });
      // A discovery document found elsewhere than under the issuer must still name that issuer.
      const issuer = configuration.serverMetadata().issuer;
      if (issuer !== this.issuer.href && issuer !== this.options.config.issuer)
        throw new FederatedLoginError(`the provider's discovery document names issuer ${issuer}, not ${this.options.config.issuer}`);
      configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
      return configuration;
    })();
    this.configuration.catch(() => (this.configuration = undefined));
    return this.configuration;
  }

  private key(state: string): string {
    return `federated:${this.options.tenantId}:${state}`;
  }

  /** Where to send the buyer for interaction `uid`: the provider's authorization URL (PKCE S256, state, nonce). */
  async start(uid: string): Promise<URL> {
    const configuration = await this.discover();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await this.options.store.set<Attempt>(this.key(state), { uid, verifier, nonce }, ATTEMPT_TTL_MS);
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: this.scope,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
  }

  /** The interaction a callback's `state` belongs to, without using the attempt up. */
  async interactionOf(state: string): Promise<string | undefined> {
    return (await this.options.store.get<Attempt>(this.key(state)))?.value.uid;
  }

  /**
   * Completes the attempt of the callback's query (code, state, iss or error): exchanges the code,
   * verifies the ID token and maps its claims. Once per attempt; it must belong to interaction `uid`.
   */
  async finish(uid: string, query: URLSearchParams): Promise<FederatedIdentity> {
    const state = query.get('state') ?? '';
    const key = this.key(state);
    const attempt = state === '' ? null : await this.options.store.get<Attempt>(key);
    if (!attempt || attempt.value.uid !== uid) throw new FederatedLoginError('This sign-in attempt has expired. Start again.');
    await this.options.store.delete(key);
    const error = query.get('error');
    if (error !== null)
      throw new FederatedLoginError(
        error === 'access_denied' ? `Sign-in with ${this.label} was cancelled.` : `${this.label} could not sign you in (${error}).`,
      );
    const callback = new URL(this.redirectUri);
    for (const [name, value] of query) callback.searchParams.append(name, value);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(await this.discover(), callback, {
        pkceCodeVerifier: attempt.value.verifier,
        expectedState: state,
        expectedNonce: attempt.value.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (cause) {
      if (cause instanceof FederatedLoginError) throw cause;
      throw new FederatedLoginError(`${this.label} could not confirm who you are. Try again.`, { cause });
    }
    if (!claims) throw new FederatedLoginError(`${this.label} did not say who you are.`);
    const customer = claims[this.customerClaim];
    if ((typeof customer !== 'string' || customer === '') && typeof customer !== 'number')
      throw new FederatedLoginError(`${this.label} did not give your customer account (claim ${this.customerClaim}).`);
    const email = claims[this.emailClaim];
    return {
      customerId: String(customer),
      subject: claims.sub,
      // An email the provider has not verified proves nothing about who owns the orders sent to it.
      ...(typeof email === 'string' && claims.email_verified === true && { email: email.toLowerCase() }),
    };
  }
}
