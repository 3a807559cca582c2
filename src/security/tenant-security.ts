/**
 * One tenant's security policy, assembled at start-up: its signing keys, whether responses are
 * signed, how incoming signatures are verified, and how callers authenticate. `admit` is the
 * single step the pipeline runs right after negotiation.
 */
import type { PlatformProfile } from '../../schemas/profile.js';
import { ConfigError } from '../../adapters/kit/config-error.js';
import type { TenantConfig } from '../config/tenant-schema.js';
import type { CapabilityName } from '../protocol/capability-registry.js';
import { Authenticator, type CallCredentials } from './auth/authenticator.js';
import type { OwnAuthorizationServer } from './auth/own-authorization-server.js';
import type { Principal } from './auth/principal.js';
import { signatureMissing } from './errors.js';
import type { HttpRequestDescriptor } from './http-request.js';
import { keySetOfProfile } from './key-set.js';
import type { Keyring } from './keyring.js';
import {
  DEFAULT_CLOCK_SKEW_SECONDS,
  DEFAULT_MAX_AGE_SECONDS,
  carriesSignature,
  verifyRequest,
  type NonceStore,
  type VerifiedSignature,
  type VerifyOptions,
} from './verify.js';

export type VerifyMode = 'off' | 'optional' | 'required';

export interface AdmissionRequest {
  capability: CapabilityName;
  /** The caller's profile URL (PROTO-Agent) and the profile fetched for it. */
  profileUrl: string;
  profile: PlatformProfile;
  /** Absent for calls that did not arrive over HTTP. */
  http?: HttpRequestDescriptor;
  now: () => number;
}

export class TenantSecurity {
  readonly signResponses: boolean;
  readonly verifyMode: VerifyMode;
  private readonly verifyOptions: Omit<VerifyOptions, 'now'>;
  private readonly authenticator: Authenticator;

  constructor(
    config: TenantConfig,
    readonly keyring: Keyring,
    where: string,
    /** The tenant's own authorization server, when it links buyer identities. */
    own?: OwnAuthorizationServer,
    /** Where accepted signature nonces are remembered (the state store); without it nonces are not checked. */
    nonces?: NonceStore,
  ) {
    const signing = config.signing ?? {};
    if (((signing.keys?.length ?? 0) > 0 || signing.ephemeral_key) && !keyring.active) {
      throw new ConfigError(`${where}: $.signing names keys that were not loaded (load them with loadKeyring)`);
    }
    if (signing.sign_responses && !keyring.active) {
      throw new ConfigError(`${where}: $.signing.sign_responses needs a signing key ($.signing.keys or $.signing.ephemeral_key)`);
    }
    this.signResponses = signing.sign_responses ?? keyring.active !== undefined;
    this.verifyMode = signing.verify_requests ?? 'optional';
    this.verifyOptions = {
      clockSkewSeconds: signing.clock_skew_seconds ?? DEFAULT_CLOCK_SKEW_SECONDS,
      maxAgeSeconds: signing.max_age_seconds ?? DEFAULT_MAX_AGE_SECONDS,
      ...(nonces && { nonces }),
    };
    this.authenticator = new Authenticator(config.auth, this.verifyMode !== 'off', where, own);
  }

  /** Verifies request signatures, authenticates the caller and checks it may use the capability. */
  async admit(request: AdmissionRequest): Promise<Principal> {
    const { http } = request;
    // Most requests are unsigned: they skip preparing the profile's keys and the verifier's promises.
    const signed = this.verifyMode !== 'off' && http !== undefined && carriesSignature(http);
    const signatures = signed ? await this.verifySignatures(http, request) : [];
    if (signatures.length === 0 && this.verifyMode === 'required') {
      throw signatureMissing(
        'this business requires signed requests: send Signature-Input and Signature (RFC 9421) made with a key from your profile',
      );
    }
    const credentials: CallCredentials = { agentProfile: request.profileUrl, signatures, now: request.now() };
    if (http) credentials.http = http;
    const principal = await this.authenticator.authenticate(credentials);
    this.authenticator.authorize(principal, request.capability);
    return principal;
  }

  /** See Authenticator.hostCredentialFor: what the embedded page asks its host for, if anything. */
  hostCredentialFor(capability: CapabilityName): 'oauth' | 'api_key' | undefined {
    return this.authenticator.hostCredentialFor(capability);
  }

  /**
   * Admits a caller with the credential its host handed it (the embedded page: `EP-Auth`), as the
   * header that credential type travels in over HTTP; no signature can come with it. Absent, the
   * caller is anonymous and gets the answer an anonymous HTTP caller gets.
   */
  async admitHostCredential(request: {
    capability: CapabilityName;
    profileUrl: string;
    type: 'oauth' | 'api_key';
    credential: string | undefined;
    now: () => number;
  }): Promise<Principal> {
    const { credential } = request;
    const headers =
      credential === undefined ? {} : request.type === 'oauth' ? { authorization: `Bearer ${credential}` } : { 'x-api-key': credential };
    const principal = await this.authenticator.authenticate({
      agentProfile: request.profileUrl,
      signatures: [],
      now: request.now(),
      http: { headers },
    });
    this.authenticator.authorize(principal, request.capability);
    return principal;
  }

  private async verifySignatures(http: HttpRequestDescriptor, { profile, now }: AdmissionRequest): Promise<VerifiedSignature[]> {
    return verifyRequest(http, await keySetOfProfile(profile), { now, ...this.verifyOptions });
  }
}
