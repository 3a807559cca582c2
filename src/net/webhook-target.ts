/**
 * Whether a platform's `webhook_url` can receive order webhooks: https (plain http only to
 * loopback, where the tenant allows loopback platforms), no credentials in it, and no private,
 * link-local or reserved address written into it. Checked when a checkout reads the profile and
 * again at each delivery; names are judged at connect time by the SSRF guard (DNS may change).
 */
import { isIP } from 'node:net';
import { isLoopback, refusal } from './address-guard.js';

export class UnusableWebhookUrl extends Error {}

export function webhookTarget(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnusableWebhookUrl('the webhook URL is not an absolute URL');
  }
  if (url.username || url.password) throw new UnusableWebhookUrl('the webhook URL must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = url.hostname === 'localhost' || isLoopback(host);
  if (url.protocol !== 'https:' && !(allowLoopback && loopback && url.protocol === 'http:')) {
    throw new UnusableWebhookUrl('the webhook URL must use https');
  }
  const refused = isIP(host) ? refusal(host, allowLoopback) : null;
  if (refused) throw new UnusableWebhookUrl(`the webhook URL's address is refused: ${refused}`);
  return url;
}
