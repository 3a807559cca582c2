// The host side of the embedded protocol (spec part 2 §6.2), as an agent's web page speaks it:
// create a session, frame its continue_url sandboxed and credentialless, answer ready (optionally
// upgrading to a MessagePort), answer delegated requests after the buyer confirms, log everything.
// Query parameters preset the form and start at once: ?kind=checkout&upgrade=1&pay=1&scheme=dark&autostart=1
// (also ready=error: refuse the handshake; version=<v>: ask for another version; url=<continue_url>: frame that
// session instead of creating one; credential=stale: answer ready's auth with an expired credential, so the
// page asks again with ec.auth; credential=refuse: the same, and refuse that auth request, unrecoverably).
const VERSION = '2026-04-08';
const log = [];
window.hostLog = log;

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const form = $('controls');

// Without a preset, the options are open so the first visit shows what can be chosen.
if (params.get('autostart') !== '1') $('options').open = true;
for (const [name, value] of params) {
  const field = form.elements.namedItem(name);
  if (field instanceof HTMLInputElement && field.type === 'checkbox') field.checked = value === '1';
  else if (field instanceof HTMLSelectElement) field.value = value;
}

function record(direction, via, message) {
  log.push({ direction, via, message });
  const item = document.createElement('li');
  item.className = direction;
  const summary = message.method ?? (message.result ? `result ${message.id}` : `error ${message.id}`);
  item.textContent = `${direction === 'in' ? '←' : '→'} [${via}] ${summary} ${preview(message)}`;
  $('log').append(item);
}

/** A resource in a message is shown by its status, lines and total; anything else as (short) JSON. */
function preview(message) {
  const resource = message.params?.checkout ?? message.params?.cart;
  if (!resource?.line_items) return JSON.stringify(message.params ?? message.result ?? message.error ?? {}).slice(0, 160);
  const total = resource.totals?.find((t) => t.type === 'total');
  const items = resource.line_items.reduce((n, line) => n + line.quantity, 0);
  const amount = total ? (total.amount / 100).toFixed(2) : '?';
  const order = resource.order ? ` · order ${resource.order.id}` : '';
  return `${resource.status ?? 'cart'} · ${items} item(s) · total ${amount} ${resource.currency ?? ''}${order}`;
}

function banner(text, link) {
  const box = document.createElement('div');
  box.className = 'banner';
  box.textContent = text;
  if (link) {
    const a = document.createElement('a');
    a.href = link;
    a.textContent = ' Continue on the store’s site';
    box.append(a);
  }
  $('stage').prepend(box);
}

async function createSession(kind, lineItems) {
  const request = JSON.stringify({ kind, ...(lineItems && { line_items: lineItems }) });
  const response = await fetch('/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: request });
  const body = await response.json();
  if (!response.ok || !body.continue_url) throw new Error(`the gateway answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  const warning = response.headers.get('host-warning');
  if (warning) banner(warning);
  return body;
}

/** The delegations the business allows for this session (its embedded service binding). */
function allowedDelegations(session) {
  const binding = (session.proto?.services?.['dev.proto.shopping'] ?? []).find((s) => s.transport === 'embedded');
  return binding?.config?.delegate ?? [];
}

/** `lineItems`: a checkout for these items (the cart the buyer just finished) instead of the example's bouquets. */
async function start(kindOverride, lineItems) {
  const options = Object.fromEntries(new FormData(form));
  const kind = kindOverride ?? (options.kind === 'cart' ? 'cart' : 'checkout');
  $('stage').replaceChildren();
  let continueUrl = lineItems ? null : params.get('url');
  let allowed = ['payment.credential', 'fulfillment.address_change'];
  if (!continueUrl) {
    const session = await createSession(kind, lineItems);
    continueUrl = session.continue_url;
    allowed = allowedDelegations(session);
  }
  const wanted = [options.pay && 'payment.credential', options.address && 'fulfillment.address_change'].filter(
    (d) => d && allowed.includes(d),
  );
  const url = new URL(continueUrl);
  // ?version= overrides what the host asks for (a wrong one shows the page's error path).
  url.searchParams.set('ep_version', params.get('version') ?? VERSION);
  if (options.scheme) url.searchParams.set('ep_color_scheme', options.scheme);
  if (kind === 'checkout') url.searchParams.set('ep_checkout_delegate', wanted.join(','));
  else url.searchParams.set('ep_cart_delegate', '');

  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin');
  frame.setAttribute('credentialless', '');
  frame.title = kind === 'cart' ? 'Cart' : 'Checkout';
  frame.src = url.href;
  $('stage').append(frame);
  speak(frame, url.origin, kind, options);
}

function speak(frame, origin, kind, options) {
  const prefix = kind === 'cart' ? 'ep.cart' : 'ec';
  let port = null;
  const proto = { version: VERSION, status: 'success' };
  const send = (message, transfer = []) => {
    record('out', port ? 'port' : 'window', message);
    if (port) port.postMessage(message);
    else frame.contentWindow.postMessage(message, origin, transfer);
  };

  async function receive(message, via) {
    record('in', via, message);
    switch (message.method) {
      case `${prefix}.ready`:
        if (params.get('ready') === 'error') {
          // A refused handshake: the page must send nothing further (the frame stays so that can be seen).
          return send({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              proto: { version: VERSION, status: 'error' },
              messages: [
                { type: 'error', code: 'not_supported_error', severity: 'unrecoverable', content: 'This assistant cannot show this page.' },
              ],
            },
          });
        }
        if (message.params?.auth && !(options.upgrade && !port)) {
          // The business requires a credential: ready's result carries one (spec: REQUIRED when auth was asked).
          const given = await credential(message.params.auth.type);
          if (!given.credential) return send({ jsonrpc: '2.0', id: message.id, result: given });
          const stale = ['stale', 'refuse'].includes(params.get('credential'));
          return send({ jsonrpc: '2.0', id: message.id, result: { proto, credential: stale ? 'expired-credential' : given.credential } });
        }
        if (options.upgrade && !port) {
          const channel = new MessageChannel();
          send({ jsonrpc: '2.0', id: message.id, result: { proto, upgrade: { port: channel.port2 } } }, [channel.port2]);
          port = channel.port1;
          port.onmessage = (event) => void receive(event.data, 'port');
          return;
        }
        return send({ jsonrpc: '2.0', id: message.id, result: { proto } });
      case `${prefix}.auth`:
        if (params.get('credential') === 'refuse') return send({ jsonrpc: '2.0', id: message.id, result: refusal() });
        return send({ jsonrpc: '2.0', id: message.id, result: await credential(message.params?.type) });
      case `${prefix}.payment.credential_request`:
        return send({ jsonrpc: '2.0', id: message.id, result: await paymentSheet(message.params.checkout) });
      case `${prefix}.fulfillment.address_change_request`:
        return send({ jsonrpc: '2.0', id: message.id, result: addressPicked() });
      case `${prefix}.complete`:
        if (kind === 'cart') return checkoutButton(message.params.cart);
        return banner(`Order placed: ${message.params.checkout?.order?.id ?? ''}`);
      case `${prefix}.error`: {
        // Tear down, and hand the buyer over where the page says (a top-level navigation the buyer starts).
        const error = message.params?.error ?? {};
        frame.remove();
        return banner(error.messages?.map((m) => m.content).join(' ') ?? 'The page stopped.', error.continue_url);
      }
      default:
        if (message.id !== undefined && message.method)
          send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  }

  window.addEventListener('message', (event) => {
    // Only the framed page, from the origin of the URL we loaded, and only until a port replaces the window.
    if (event.source !== frame.contentWindow || event.origin !== origin || port) return;
    if (event.data?.jsonrpc === '2.0') void receive(event.data, 'window');
  });
}

/** A credential of the business's type from this agent's backend, as an auth result (or its error result). */
async function credential(type) {
  const response = await fetch('/api/credential', { method: 'POST' });
  const given = response.ok ? await response.json() : {};
  if (given.type !== type || !given.credential) return refusal(`This assistant holds no ${type} credential for this business.`);
  return { proto: { version: VERSION, status: 'success' }, credential: given.credential };
}

function refusal(content = 'This assistant does not hand out credentials.') {
  return {
    proto: { version: VERSION, status: 'error' },
    messages: [{ type: 'error', code: 'not_supported_error', severity: 'unrecoverable', content }],
  };
}

/** After ep.cart.complete the host may create a checkout from the cart: one button away. */
function checkoutButton(cart) {
  const lineItems = (cart?.line_items ?? []).map((line) => ({ item: { id: line.item.id }, quantity: line.quantity }));
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'checkout-cart';
  button.textContent = 'Check out these items';
  button.addEventListener('click', () => start('checkout', lineItems).catch((error) => banner(error.message)));
  banner('Cart finished.');
  $('stage').firstElementChild.append(' ', button);
}

/** The buyer confirms in the host's own sheet before any credential leaves it. */
function paymentSheet(checkout) {
  const total = checkout?.totals?.find((t) => t.type === 'total');
  const handler = Object.values(checkout?.proto?.payment_handlers ?? {}).flat()[0];
  $('sheet-text').textContent =
    `Pay ${total ? (total.amount / 100).toFixed(2) : ''} ${checkout?.currency ?? ''} with Visa •••• 4242 (sandbox).`;
  const sheet = $('sheet');
  sheet.returnValue = '';
  sheet.showModal();
  return new Promise((resolve) => {
    sheet.addEventListener(
      'close',
      () => {
        if (sheet.returnValue !== 'pay') {
          return resolve({
            proto: { version: VERSION, status: 'error' },
            messages: [
              { type: 'error', code: 'abort_error', severity: 'recoverable', content: 'You closed the payment sheet. Nothing was paid.' },
            ],
          });
        }
        const instrument = {
          id: 'wallet_visa_4242',
          handler_id: handler?.id ?? 'sandbox',
          type: 'card',
          selected: true,
          display: { brand: 'visa', last_digits: '4242', description: 'Visa •••• 4242' },
          credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
        };
        resolve({ proto: { version: VERSION, status: 'success' }, checkout: { payment: { instruments: [instrument] } } });
      },
      { once: true },
    );
  });
}

function addressPicked() {
  const destination = {
    id: 'host_home',
    first_name: 'Ann',
    last_name: 'Lee',
    street_address: '123 Main St',
    address_locality: 'Chicago',
    address_region: 'IL',
    postal_code: '60601',
    address_country: 'US',
  };
  return {
    proto: { version: VERSION, status: 'success' },
    checkout: { fulfillment: { methods: [{ type: 'shipping', destinations: [destination], selected_destination_id: 'host_home' }] } },
  };
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  start().catch((error) => banner(error.message));
});
if (params.get('autostart') === '1') start().catch((error) => banner(error.message));
