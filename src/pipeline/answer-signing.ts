/**
 * Response signing (spec part 2 §4.1 "Responses SHOULD be signed") as the last step of every
 * operation answer, whatever carries it: a transport hands over the exact bytes it sends, with
 * their status and content type, and adds the headers it gets back (Content-Digest,
 * Signature-Input, Signature). The transports do so in one Fastify hook (transports/signed-answers.ts);
 * a transport outside Fastify calls `signAnswer` itself.
 */
import type { Body } from '../security/content-digest.js';
import { signResponse } from '../security/sign.js';
import type { Tenant } from '../tenancy/tenant.js';

export interface AnswerBytes {
  status: number;
  /** The Content-Type sent with a body. */
  contentType?: string;
  body?: Body;
}

/** The headers that sign `answer`, or none when the tenant does not sign its responses. */
export function signAnswer(tenant: Tenant, answer: AnswerBytes, now: () => number): Record<string, string> | undefined {
  const { security } = tenant;
  const key = security.signResponses ? security.keyring.active : undefined;
  return key && signResponse(answer, { key, now });
}
