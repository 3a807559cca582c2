// `medusa exec ./src/scripts/proto-webhook-ping.js`: checks the push subscriber's set-up (its
// PROTO_WEBHOOK_URL and PROTO_WEBHOOK_SECRET) by sending the gateway one signed ping, as the
// subscriber sends events. The gateway answers a verified ping 200 `{"status":"ping"}` and changes
// nothing; a wrong secret or an unknown tenant is a 401 or 404, printed here. Copy it next to the
// subscriber (docs/adapters/medusa.md, "Push delivery").
/* global URL */
const { randomUUID } = require('node:crypto');
const { deliver } = require('../subscribers/proto-gateway-webhook');

async function ping({ container }) {
  const logger = container.resolve('logger');
  const url = process.env.PROTO_WEBHOOK_URL;
  const secret = process.env.PROTO_WEBHOOK_SECRET;
  if (!url || !secret) throw new Error('set PROTO_WEBHOOK_URL and PROTO_WEBHOOK_SECRET (as for the Medusa server) first');
  const delivered = await deliver({ id: randomUUID(), type: 'ping', created_at: new Date().toISOString() }, { url, secret, logger });
  if (!delivered) throw new Error(`the gateway at ${new URL(url).origin} did not take the ping (see the warning above)`);
  logger.info(`proto gateway webhook: the gateway at ${new URL(url).origin} verified a signed ping`);
}

exports.default = ping;
