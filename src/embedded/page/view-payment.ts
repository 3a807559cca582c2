/**
 * Paying: with the host when it took `payment.credential`; otherwise with one of the business's
 * handlers the page can build an instrument for (the sandbox's test cards); otherwise the store
 * takes payment on its own site and the button hands the buyer over. The button works once the
 * checkout is ready_for_complete (its total final), never before.
 */
import { h, uid } from './dom.js';
import { formatMoney } from './money.js';
import type { Resource } from './model.js';
import type { PaymentChoice, ViewContext } from './view-context.js';

const SANDBOX = 'dev.proto.payments.sandbox';
const TEST_CARDS = [
  { token: 'success_token', label: 'Test card: approved' },
  { token: 'fail_token', label: 'Test card: declined' },
  { token: 'action_required_token', label: 'Test card: bank asks to confirm on the store’s site' },
];

/** Handlers of the business the page can pay with itself (the sandbox only: it needs no card form). */
function sandboxHandlers(resource: Resource) {
  return resource.proto?.payment_handlers?.[SANDBOX] ?? [];
}

export function paymentSection(ctx: ViewContext): HTMLElement {
  const total = ctx.resource.totals.find((t) => t.type === 'total');
  const amount = total ? formatMoney(total.amount, ctx.resource.currency) : '';
  const handler = sandboxHandlers(ctx.resource)[0];
  let body: Array<Node | null>;
  let choice: () => PaymentChoice;
  let label = `Pay ${amount}`;
  if (ctx.delegated.has('payment.credential')) {
    body = [h('p', {}, 'Your payment details come from the app you are shopping in. It asks you to confirm before anything is paid.')];
    choice = () => ({});
  } else if (handler) {
    const name = uid('card');
    const inputs = TEST_CARDS.map((card, index) =>
      h('input', {
        type: 'radio',
        name,
        value: card.token,
        checked: index === 0,
        id: uid('card'),
        'data-key': `card-${card.token}`,
        disabled: ctx.busy,
      }),
    );
    body = [
      h(
        'fieldset',
        { class: 'choices' },
        h('legend', {}, 'Card (sandbox: no money moves)'),
        ...inputs.map((input, index) => h('label', { for: input.id, class: 'choice' }, input, h('span', {}, TEST_CARDS[index]!.label))),
      ),
    ];
    const type = handler.available_instruments?.[0]?.type ?? 'card';
    choice = () => ({ handlerId: handler.id, type, token: inputs.find((i) => i.checked)?.value ?? TEST_CARDS[0]!.token });
  } else {
    body = [h('p', {}, `${ctx.businessName} takes payment on its own site. You continue there to pay; your items and details come along.`)];
    choice = () => ({});
    label = 'Continue to payment';
  }
  if (ctx.resource.status === 'complete_in_progress') label = 'Check order status';
  const payable = ctx.resource.status === 'ready_for_complete' || ctx.resource.status === 'complete_in_progress';
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'payment-title' },
    h('h2', { id: 'payment-title' }, 'Payment'),
    ...body,
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-key': 'pay',
        disabled: ctx.busy || !payable,
        'aria-describedby': payable ? undefined : 'pay-pending',
        onclick: () => ctx.pay(choice()),
      },
      ctx.busy ? 'Working…' : label,
    ),
    payable
      ? null
      : h(
          'p',
          { id: 'pay-pending', class: 'muted' },
          'You can pay once the store has everything it needs: the notes above say what is missing.',
        ),
  );
}

export function cartFinishSection(ctx: ViewContext): HTMLElement {
  return h(
    'section',
    { class: 'card' },
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-key': 'cart-done',
        disabled: ctx.busy || ctx.resource.line_items.length === 0,
        onclick: () => ctx.finishCart(),
      },
      'Continue to checkout',
    ),
  );
}
