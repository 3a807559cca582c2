/**
 * Caller authentication per tenant policy (spec part 1 §5, part 2 §5): API key, OAuth bearer
 * token, HTTP message signature, mutual TLS. Every credential presented must be valid and
 * issued to the platform named in PROTO-Agent; the result is the caller's principal. Then
 * authorization: is a principal needed for this capability, and does a buyer hold its scope?
 */
import { ConfigError } from '../../../adapters/kit/config-error.js';
import type { TenantAuth } from '../../config/tenant-schema.js';
import { isCapabilityName, type CapabilityName } from '../../protocol/capability-registry.js';
import {
  authenticationRequired,
  credentialNotAccepted,
  credentialProfileMismatch,
  insufficientScope,
  invalidCredentials,
} from '../errors.js';
import { fieldValue } from '../http-message.js';
import type { HttpRequestDescriptor } from '../http-request.js';
import type { VerifiedSignature } from '../verify.js';
import { ApiKeys } from './api-keys.js';
import { BearerTokens, type Authenticated } from './bearer-tokens.js';
import { ClientCertificates } from './client-certificates.js';
import {
  bearerChallenge,
  buyerIdentityRequired,
  invalidBuyerToken,
  missingScope,
  type OwnAuthorizationServer,
} from './own-authorization-server.js';
import { ANONYMOUS, canonicalProfile, sameProfile, type AuthMechanism, type Principal } from './principal.js';
import { ALWAYS_AUTHENTICATED, BUYER_SCOPES } from './scopes.js';

export interface CallCredentials {
  /** The profile URL from PROTO-Agent (or MCP meta). */
  agentProfile: string;
  /** The request's credentials: its headers and the client certificate the TLS listener verified. */
  http?: Pick<HttpRequestDescriptor, 'headers' | 'clientCertificateSha256'>;
  /** Signatures already verified with keys from that profile. */
  signatures: readonly VerifiedSignature[];
  now: number;
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

export class Authenticator {
  private readonly accept: ReadonlySet<AuthMechanism>;
  private readonly apiKeys?: ApiKeys;
  private readonly bearer?: BearerTokens;
  private readonly certificates?: ClientCertificates;
  private readonly own?: OwnAuthorizationServer;
  private readonly requiredFor: ReadonlySet<string>;
  /** Profiles whose signatures authenticate (`auth.signatures.profiles`), canonical. */
  private readonly signingProfiles: ReadonlySet<string>;
  private readonly anyProfileSigns: boolean;

  /**
   * Checks the `auth` section at start-up; `signaturesVerified` is false when verify_requests is off.
   * `own`: the tenant's own authorization server (identity linking), whose tokens are looked up first.
   */
  constructor(
    private readonly auth: TenantAuth = {},
    signaturesVerified: boolean,
    where: string,
    own?: OwnAuthorizationServer,
  ) {
    // A signature proves only that the caller holds keys its profile publishes, and anyone can host a
    // profile: signatures authenticate for the profiles the tenant lists, or any with the explicit opt-in.
    this.signingProfiles = new Set((auth.signatures?.profiles ?? []).map(canonicalProfile));
    this.anyProfileSigns = auth.signatures?.any_profile === true;
    const configured: Record<AuthMechanism, boolean> = {
      api_key: (auth.api_keys?.length ?? 0) > 0,
      oauth: auth.oauth !== undefined || own !== undefined,
      signature: signaturesVerified && (this.signingProfiles.size > 0 || this.anyProfileSigns),
      mtls: auth.mtls !== undefined,
    };
    const accept = auth.accept ?? (Object.keys(configured) as AuthMechanism[]).filter((m) => configured[m]);
    for (const mechanism of accept) {
      if (!configured[mechanism]) {
        const need = {
          api_key: '$.auth.api_keys',
          oauth: '$.auth.oauth',
          signature: '$.signing.verify_requests other than off and $.auth.signatures (its profiles, or any_profile: true)',
          mtls: '$.auth.mtls',
        }[mechanism];
        throw new ConfigError(`${where}: $.auth.accept lists ${mechanism}, which needs ${need}`);
      }
    }
    this.accept = new Set(accept);
    for (const name of auth.required_capabilities ?? []) {
      if (!isCapabilityName(name))
        throw new ConfigError(`${where}: $.auth.required_capabilities: ${name} is not a capability this gateway implements`);
    }
    this.requiredFor = new Set(auth.required_capabilities ?? []);
    if (this.accept.has('api_key')) this.apiKeys = new ApiKeys(auth.api_keys ?? []);
    if (this.accept.has('mtls')) this.certificates = new ClientCertificates(auth.mtls?.clients ?? []);
    if (this.accept.has('oauth') && own) this.own = own;
    if (this.accept.has('oauth') && auth.oauth) {
      if ((auth.oauth.jwks_url === undefined) === (auth.oauth.jwks === undefined)) {
        throw new ConfigError(`${where}: $.auth.oauth needs exactly one of jwks_url or jwks`);
      }
      this.bearer = new BearerTokens(auth.oauth);
    }
  }

  async authenticate(call: CallCredentials): Promise<Principal> {
    const headers = call.http?.headers ?? {};
    const found: Authenticated[] = [];
    const apiKey = fieldValue(headers, 'x-api-key');
    if (apiKey !== undefined) {
      if (!this.apiKeys) throw credentialNotAccepted('X-API-Key');
      const profileUrl = this.apiKeys.identify(apiKey);
      if (profileUrl === undefined) throw invalidCredentials('the API key is not valid');
      found.push({ kind: 'platform', profileUrl, via: 'api_key' });
    }
    const authorization = fieldValue(headers, 'authorization');
    if (authorization !== undefined) {
      if (!this.bearer && !this.own) throw credentialNotAccepted('Authorization');
      const token = BEARER.exec(authorization)?.[1];
      if (token === undefined) {
        const why = 'Authorization must be "Bearer <token>"';
        throw this.own ? invalidBuyerToken(this.own, why) : invalidCredentials(why, { 'www-authenticate': 'Bearer' });
      }
      const issued = this.own && (await this.own.principalOf(token));
      // A buyer's token is valid only for the client it was issued to (RFC 9068 §4): for another it is invalid_token.
      if (issued && issued.kind === 'buyer' && !sameProfile(issued.profileUrl, call.agentProfile))
        throw invalidBuyerToken(this.own, 'the access token was issued to another platform than the PROTO-Agent profile');
      if (issued) found.push(issued);
      else if (this.bearer) found.push(await this.bearer.authenticate(token, call.now));
      else throw invalidBuyerToken(this.own!, 'the access token is not valid: unknown, expired or revoked');
    }
    const certificate = call.http?.clientCertificateSha256;
    const certificateProfile = certificate === undefined ? undefined : this.certificates?.identify(certificate);
    if (certificateProfile !== undefined) found.push({ kind: 'platform', profileUrl: certificateProfile, via: 'mtls' });
    // The keys that verified come from the PROTO-Agent profile: the signature names that platform,
    // when the tenant lists it (a signature from another profile is verified, and proves nothing).
    if (this.accept.has('signature') && call.signatures.length > 0) {
      const listed = this.signingProfiles.has(canonicalProfile(call.agentProfile));
      if (listed || this.anyProfileSigns)
        found.push({ kind: 'platform', profileUrl: call.agentProfile, via: 'signature', ...(!listed && { selfPublished: true as const }) });
    }

    for (const principal of found) {
      if (!sameProfile(principal.profileUrl, call.agentProfile))
        throw credentialProfileMismatch(principal.kind === 'buyer' ? 'oauth' : principal.via);
    }
    return found.find((p) => p.kind === 'buyer') ?? found[0] ?? ANONYMOUS;
  }

  /**
   * The credential a caller that can only hand over a string (the embedded page, from its host)
   * presents for the capability: undefined when an anonymous caller may use it, or when the tenant
   * accepts no such credential (signatures and client certificates only).
   */
  hostCredentialFor(capability: CapabilityName): 'oauth' | 'api_key' | undefined {
    const required = this.auth.required || this.requiredFor.has(capability) || ALWAYS_AUTHENTICATED.has(capability);
    if (!required) return undefined;
    if (this.accept.has('oauth')) return 'oauth';
    return this.accept.has('api_key') ? 'api_key' : undefined;
  }

  authorize(principal: Principal, capability: CapabilityName): void {
    const scope = BUYER_SCOPES[capability];
    if (principal.kind === 'anonymous') {
      // With identity linking, a buyer-scoped operation asks for the buyer's identity.
      if (this.own && scope !== undefined && ALWAYS_AUTHENTICATED.has(capability)) {
        throw buyerIdentityRequired(
          this.own,
          `${capability} needs the buyer's identity (a token with ${scope}) or the platform's own credentials`,
        );
      }
      if (this.auth.required || this.requiredFor.has(capability) || ALWAYS_AUTHENTICATED.has(capability)) {
        const how = [...this.accept].join(', ') || 'none configured';
        // RFC 7235 §3.1: the 401 names the scheme; the tenant's own server also names its realm and metadata.
        const challenge = this.own ? bearerChallenge(this.own) : this.bearer ? 'Bearer' : undefined;
        throw authenticationRequired(
          `${capability} needs an authenticated caller (accepted: ${how})`,
          challenge ? { 'www-authenticate': challenge } : undefined,
        );
      }
      return;
    }
    if (principal.kind === 'buyer' && scope !== undefined && !principal.scopes.includes(scope))
      throw this.own ? missingScope(this.own, scope) : insufficientScope(scope);
  }
}
