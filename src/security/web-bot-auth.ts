/**
 * The Web Bot Auth interop shape (spec part 2 §5.4): a Signature-Agent dictionary member per
 * signature label, `tag="web-bot-auth"`, created + expires (at most 24 h apart), a random
 * nonce, and keyid = the key's RFC 7638 thumbprint.
 */
import { randomBytes } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';

export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
const MAX_LIFETIME_SECONDS = 86_400;
const NONCE_BYTES = 64;

export interface WebBotAuthOptions {
  /** https URL where the signer's keys are published (its profile). */
  agentUrl: string;
  /** The member's `type` parameter; the spec shows no values, so ours names what the URL serves. */
  type?: string;
  lifetimeSeconds?: number;
}

export function signatureAgentField(label: string, options: WebBotAuthOptions): string {
  if (!options.agentUrl.startsWith('https://')) throw new Error('Signature-Agent must be an https URL');
  return serializeDictionary(new Map([[label, [options.agentUrl, new Map([['type', options.type ?? 'profile']])]]]));
}

export function webBotAuthParams(created: number, options: WebBotAuthOptions) {
  const lifetime = Math.min(options.lifetimeSeconds ?? 3600, MAX_LIFETIME_SECONDS);
  return { expires: created + lifetime, nonce: randomBytes(NONCE_BYTES).toString('base64url'), tag: WEB_BOT_AUTH_TAG };
}
