// The stand-in for Stripe's 3-D Secure page (next_action.redirect_to_url.url of an intent that
// requires action, src/modules/test-card). GET shows it; POST `outcome=approve|fail` (a form or
// JSON) is the buyer passing or failing the challenge. Then, as Stripe does: the intent succeeds
// (captured at once with the provider's `capture` option, else requires_capture) or goes back to
// requires_payment_method with last_payment_error `payment_intent_authentication_failure`
// (docs.stripe.com/payments/3d-secure/authentication-flow; docs.stripe.com/error-codes), and
// Stripe's webhook reaches Medusa's payment hook (`POST /hooks/payment/{provider}`, @medusajs/medusa
// api/hooks/payment/[provider]/route.js), which processes it after its delay (payment-webhook
// subscriber → core-flows processPaymentWorkflow: authorize, capture, complete the cart).
/* global fetch */
const intents = require('../../../../modules/test-card/intents.js');

const page = (id, intent) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Confirm your payment</title></head>
<body>
<h1>Confirm your payment</h1>
<p>Your bank asks you to confirm the payment ${id} of ${(intent.amount / 100).toFixed(2)} ${String(intent.currency).toUpperCase()}.</p>
<form method="post"><button name="outcome" value="approve">Confirm</button> <button name="outcome" value="fail">Cancel</button></form>
</body></html>`;

const GET = async (req, res) => {
  const intent = intents.current(req.params.id);
  if (!intent || intent.status !== 'requires_action') return res.status(404).send('No payment to confirm here.');
  res.type('html').send(page(req.params.id, intent));
};

const POST = async (req, res) => {
  const { id } = req.params;
  const intent = intents.current(id);
  const outcome = req.body && req.body.outcome;
  if (!intent || intent.status !== 'requires_action') return res.status(404).json({ message: 'No payment to confirm here.' });
  if (outcome !== 'approve' && outcome !== 'fail') return res.status(400).json({ message: 'outcome is approve or fail' });
  const updated =
    outcome === 'approve'
      ? intents.update(id, {
          status: intent.capture_method === 'automatic' ? 'succeeded' : 'requires_capture',
          next_action: null,
          amount_received: intent.capture_method === 'automatic' ? intent.amount : 0,
        })
      : intents.update(id, {
          status: 'requires_payment_method',
          next_action: null,
          last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure' },
        });
  const type =
    outcome === 'fail'
      ? 'payment_intent.payment_failed'
      : updated.status === 'succeeded'
        ? 'payment_intent.succeeded'
        : 'payment_intent.amount_capturable_updated';
  const event = { id: `evt_test_${Date.now().toString(36)}`, object: 'event', type, data: { object: updated } };
  const own = `${req.protocol}://${req.get('host')}`;
  const delivered = await fetch(`${own}/hooks/payment/${intents.hookOf(id)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
  res.json({ status: updated.status, webhook: delivered.status });
};

module.exports = { GET, POST };
