/**
 * What a platform does with an order webhook it received (spec part 2 §6.1): resolve the
 * business's keys from the profile named in PROTO-Agent, then verify Content-Digest and the
 * signature, here with the gateway's own verifier, as a platform built on this code base would.
 */
import type { OrderEventBody } from '../../schemas/order.js';
import { parseAgentHeader } from '../../src/protocol/agent-header.js';
import { requestMessage, type HttpRequestMessage } from '../../src/security/http-message.js';
import { keySetOfProfile } from '../../src/security/key-set.js';
import { verifyRequest } from '../../src/security/verify.js';
import type { TestGateway } from '../helpers/gateway.js';
import type { ReceivedWebhook, WebhookReceiver } from '../helpers/webhook-receiver.js';

/** The business profile, as the platform fetches it from the PROTO-Agent URL (here: from the gateway in-process). */
export async function businessProfile(gw: TestGateway, webhook: ReceivedWebhook): Promise<{ keys: Array<Record<string, string>> }> {
  const profileUrl = new URL(parseAgentHeader(webhook.headers['proto-agent']).profile);
  const res = await gw.app.inject({ method: 'GET', url: profileUrl.pathname, headers: { host: profileUrl.host } });
  return res.json();
}

export function asMessage(receiver: WebhookReceiver, webhook: ReceivedWebhook): HttpRequestMessage {
  const headers = Object.fromEntries(Object.entries(webhook.headers).map(([name, value]) => [name, String(value)]));
  return requestMessage({ method: webhook.method, url: new URL(webhook.target, receiver.url('/')), headers, body: webhook.body });
}

export async function verifyAsPlatform(
  gw: TestGateway,
  receiver: WebhookReceiver,
  webhook: ReceivedWebhook,
  now: () => number,
  message = asMessage(receiver, webhook),
) {
  return verifyRequest(message, await keySetOfProfile(await businessProfile(gw, webhook)), { now });
}

export const bodyOf = (webhook: ReceivedWebhook) => JSON.parse(webhook.body) as OrderEventBody;
