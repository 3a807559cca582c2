/**
 * Secrets never reach a log line or an error text: every operation of the table is called over
 * REST and MCP with every kind of credential (a valid and a wrong API key, a valid and a forged
 * bearer token, a request signature), with payment-like tokens in the payload, through faults
 * of the backend and bad input, with logging at its most verbose; then the captured log output
 * and every error answer are searched for each secret.
 */
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { GatewaySecret } from '../../src/config/gateway-secret.js';
import { operations } from '../../src/pipeline/table.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { agentPath, reliabilityGateway, NOW, type ReliabilityGateway } from './helpers/reliability-gateway.js';
import { everywhere, faulty, type FaultyAdapter } from './helpers/faulty.js';
import { mcpRequest, readAnswer, restRequest, TRANSPORTS, type Answer, type Call } from './helpers/operation-client.js';
import { goodPayload, kindOf, resourceKinds } from './helpers/resources.js';
import { Tally } from './helpers/tally.js';

const API_KEY = 'pk_live_LOGLEAK_4f9a2c7e1b8d3a6f';
const WRONG_API_KEY = 'pk_live_LOGLEAK_wrong_0b1c2d3e';
const GATEWAY_SECRET = 'gw_secret_LOGLEAK_9c8b7a6f5e4d3c2b1a0f';
const CARD_TOKEN = 'tok_LOGLEAK_visa_4242424242424242';
const ISSUER = 'https://id.shop.example';
const AUDIENCE = 'https://shop.example';
const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');

const kinds = resourceKinds(operations);
const tally = new Tally('log secrets');
let gw: ReliabilityGateway;
let platform: PlatformServer;
let backend: FaultyAdapter;
let profile: string;
let issuerKey: CryptoKey;
const secrets: string[] = [API_KEY, WRONG_API_KEY, GATEWAY_SECRET, CARD_TOKEN];
const answers: Answer[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  issuerKey = pair.privateKey;
  const issuerJwk = { ...(await exportJWK(pair.publicKey)), kid: 'as-1', alg: 'ES256' };
  platform = await startPlatform();
  profile = platform.url(agentPath('log-agent'));
  gw = await reliabilityGateway({
    platform,
    gateway: { logLevel: 'trace', secret: GatewaySecret.from(GATEWAY_SECRET) },
    wrapAdapter: (adapter) => (backend = faulty(adapter)),
    tenant: {
      auth: {
        api_keys: [{ sha256: sha256hex(API_KEY), profile }],
        oauth: { issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [issuerJwk] }, clients: { 'agent-app': profile } },
      },
      policies: { allow_loopback_profiles: true, backend: { timeout_ms: 100, attempts: 2 } },
    },
  });
  gw.agent('log-agent');
});
afterAll(async () => {
  tally.set('log lines', gw?.rawLogs.length ?? 0);
  tally.set('secrets planted', secrets.length);
  tally.print();
  await gw?.close();
  await platform?.close();
});

async function bearer(claims: Record<string, unknown>, key: CryptoKey = issuerKey): Promise<string> {
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'as-1' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(NOW / 1000)
    .setExpirationTime(NOW / 1000 + 600)
    .sign(key);
  secrets.push(token, token.split('.')[2]!);
  return token;
}

/** Every credential a caller may present, each one request's headers. */
async function credentials(): Promise<Array<Record<string, string>>> {
  const forgedKey = (await generateKeyPair('ES256')).privateKey;
  return [
    { 'x-api-key': API_KEY },
    { 'x-api-key': WRONG_API_KEY },
    { authorization: `Bearer ${await bearer({ sub: 'buyer-1', client_id: 'agent-app', scope: 'dev.proto.shopping.order:read' })}` },
    { authorization: `Bearer ${await bearer({ sub: 'agent-app', client_id: 'agent-app' }, forgedKey)}` },
    { authorization: 'Basic dXNlcjpwYXNzd29yZF9MT0dMRUFL' },
    {},
  ];
}

/** The REST request, signed by the agent; its Signature value joins the secrets. */
function signedRest(call: Call, headers: Record<string, string>) {
  const signed = gw.sign(restRequest({ ...call, headers }));
  secrets.push(String(signed.headers!.signature).replace(/^sig1=:|:$/g, ''));
  return signed;
}

// A sweep of every credential × fault × operation × transport: on a loaded machine it outlasts the 20 s default.
it('no secret appears in any log line or error answer, whatever the request and whatever fails', { timeout: 120_000 }, async () => {
  for (const headers of await credentials()) {
    for (const fault of [undefined, 'fatal', 'crash'] as const) {
      backend.setPlan(fault ? everywhere(fault) : {});
      for (const op of operations) {
        const kind = kindOf(kinds, op);
        backend.setPlan({});
        const id = kind ? await kind.produce(gw, profile) : op.mcp.id ? 'unknown' : undefined;
        backend.setPlan(fault ? everywhere(fault) : {});
        const payload = { ...goodPayload(op), context: { payment: { credential: { type: 'card', token: CARD_TOKEN } } } };
        for (const transport of TRANSPORTS) {
          const call: Call = { op, transport, profile, ...(id !== undefined && { id }), payload };
          const res = await gw.app.inject(
            transport === 'rest'
              ? signedRest(call, headers)
              : { ...mcpRequest(call), headers: { ...mcpRequest(call).headers, ...headers } },
          );
          const answer = readAnswer(transport, res);
          tally.record(answer);
          answers.push(answer);
        }
      }
    }
  }
  // Bad input too: malformed bodies, keys and headers carrying a secret.
  for (const op of operations.filter((o) => o.rest.method !== 'GET')) {
    const res = await gw.app.inject({
      ...restRequest({ op, transport: 'rest', profile, rawBody: `{"token":"${CARD_TOKEN}"`, headers: { 'x-api-key': API_KEY } }),
    });
    answers.push(readAnswer('rest', res));
  }
  backend.setPlan({});

  const logs = gw.rawLogs.join('\n');
  expect(gw.rawLogs.length, 'every request was logged').toBeGreaterThanOrEqual(answers.length);
  for (const secret of secrets) {
    expect(logs.includes(secret), `a log line holds ${secret.slice(0, 12)}…`).toBe(false);
    for (const answer of answers.filter((a) => a.kind === 'transport')) {
      expect(answer.text.includes(secret), `an error answer holds ${secret.slice(0, 12)}…: ${answer.text}`).toBe(false);
    }
  }
  // The requests did reach each layer: authenticated, refused, failed in the backend.
  const codes = new Set(answers.map((a) => a.code));
  expect(codes).toContain('invalid_credentials');
  expect(codes).toContain('backend_unavailable');
  for (const transport of TRANSPORTS)
    expect(
      answers.some((a) => a.transport === transport && a.kind === 'success'),
      transport,
    ).toBe(true);
});

it('a mistyped STORE setting is refused without echoing the Redis password it carries', () => {
  for (const store of ['redis:/admin:LOGLEAK_redis_pw@10.0.0.5:6379', 'redis//admin:LOGLEAK_redis_pw@cache:6379', 'LOGLEAK_redis_pw']) {
    let message = '';
    try {
      settingsFromEnv({ STORE: store });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^STORE must be/);
    expect(message).not.toContain('LOGLEAK_redis_pw');
  }
});
