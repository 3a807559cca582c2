/**
 * Transport errors of the security layer, with stable codes (docs/decisions.md). Messages name
 * what is wrong and never echo a credential, a signature value or a private key.
 */
import { ProtocolError } from '../protocol/errors.js';

export const signatureMissing = (why: string) => new ProtocolError('signature_missing', why);

export const signatureInvalid = (label: string, why: string) => new ProtocolError('signature_invalid', `signature ${label}: ${why}`);

export const signatureExpired = (label: string, why: string) => new ProtocolError('signature_expired', `signature ${label}: ${why}`);

export const unknownKey = (label: string, kid: string) =>
  new ProtocolError('key_not_found', `signature ${label}: keyid ${JSON.stringify(kid)} is not among the signer's published keys`);

/** Spec part 2 §7: a key type, curve or algorithm the verifier cannot use. */
export const algorithmUnsupported = (label: string, why: string) =>
  new ProtocolError('algorithm_unsupported', `signature ${label}: ${why}`);

export const digestMismatch = () => new ProtocolError('digest_mismatch', 'Content-Digest does not match the request body');

export const invalidDigest = (why: string) => new ProtocolError('invalid_content_digest', why);

export const authenticationRequired = (why: string, headers?: Record<string, string>) =>
  new ProtocolError('authentication_required', why, headers ? { headers } : {});

export const invalidCredentials = (why: string, headers?: Record<string, string>) =>
  new ProtocolError('invalid_credentials', why, headers ? { headers } : {});

export const credentialNotAccepted = (what: string) =>
  new ProtocolError('credential_not_accepted', `${what} is not an authentication mechanism this business accepts`);

export const credentialProfileMismatch = (via: string) =>
  new ProtocolError('credential_profile_mismatch', `the ${via} credential was issued to another platform than the PROTO-Agent profile`);

export const unknownClient = () =>
  new ProtocolError('unknown_client', 'the bearer token was issued to a client that is not registered with this business');

/** `challenge`: the WWW-Authenticate value (with realm and resource_metadata) when the business runs its own authorization server. */
export const insufficientScope = (scope: string, challenge = `Bearer error="insufficient_scope", scope="${scope}"`) =>
  new ProtocolError('insufficient_scope', `this operation needs the scope ${scope}`, {
    headers: { 'www-authenticate': challenge },
  });

/** A buyer identity token is needed (none sent, or the one sent is not valid): upstream identity-linking.md. */
export const identityRequired = (why: string, challenge: string) =>
  new ProtocolError('identity_required', why, { headers: { 'www-authenticate': challenge } });

export const authorizationServerUnavailable = () =>
  new ProtocolError('authorization_server_unavailable', 'the authorization server keys could not be fetched; retry shortly', {
    retryAfterSeconds: 5,
  });
