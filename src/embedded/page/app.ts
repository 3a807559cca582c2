/**
 * The page at work: loads its session through the page RPC, renders it, turns the buyer's edits
 * into updates, tells the host about every change (full resource), pays (itself, through the
 * host, or by handing the buyer to the store) and ends with complete or a session error.
 */
import type { Session } from './config.js';
import { h } from './dom.js';
import { defaultOptions, methodRequests, updateBody, type Edit } from './edits.js';
import { refusal, type Answer, type Gateway } from './gateway.js';
import { embeddedError, type HostLink, type ProtoMessage } from './host-link.js';
import type { FulfillmentMethod, Instrument, Resource } from './model.js';
import { changeNotifications } from './notifications.js';
import { buyerSection } from './view-buyer.js';
import type { PaymentChoice, ViewContext } from './view-context.js';
import { fulfillmentSection } from './view-fulfillment.js';
import { discountsSection, linesSection } from './view-lines.js';
import { confirmation, handoff, problem } from './view-outcome.js';
import { cartFinishSection, paymentSection } from './view-payment.js';
import { summarySection } from './view-summary.js';

const SESSION_GONE = new Set([401, 403, 404, 410]);

/** The error messages' text, one sentence after another ('' when there are none). */
const errorText = (messages: readonly ProtoMessage[] = []): string =>
  messages
    .filter((m) => m.type === 'error')
    .map((m) => m.content)
    .join(' ');

/** The controls (by key prefix) whose text an edit of each part saves. */
const SAVED_BY: Record<Edit['part'], string> = { line_items: 'qty-', discounts: 'discount-code', buyer: 'buyer-', fulfillment: 'ship-' };

export class App {
  private resource!: Resource;
  private busy = false;
  private notice: string | undefined;
  private ending: HTMLElement | undefined;
  private focusKey: string | undefined;
  /** Text the buyer typed and has not saved yet, by control key: a re-render must not wipe it. */
  private readonly typed = new Map<string, string>();
  private readonly kind: Session['config']['kind'];
  /** One live region for the whole session: re-rendered ones would not be announced. */
  private readonly announcer = h('p', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });

  constructor(
    private readonly session: Session,
    private readonly link: HostLink,
    private readonly gateway: Gateway,
    private readonly root: HTMLElement,
  ) {
    this.kind = session.config.kind;
    document.body.append(this.announcer);
  }

  async run(): Promise<void> {
    this.root.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading…'));
    const handshake = await this.link.handshake();
    if (handshake.status === 'refused') {
      return this.end(
        problem('This session was closed', 'The app you are shopping in closed this session.', this.session.config.storefrontUrl),
      );
    }
    if (handshake.status === 'failed')
      return this.end(problem('Something went wrong', handshake.reason, this.session.config.storefrontUrl));
    if (handshake.credential) this.gateway.useCredential(handshake.credential);
    const answer = await this.gateway.call(`get_${this.kind}`);
    const loaded = this.resourceOf(answer);
    if (!loaded) return this.sessionGone(answer);
    // A completed checkout reads as its confirmation only (no buyer data): show just that.
    if (loaded.status === 'completed') return this.end(confirmation(loaded, this.session.config.businessName));
    this.resource = loaded;
    this.render();
    this.link.notify('start', this.params());
    if (this.resource.status === 'requires_escalation' && this.resource.continue_url) this.handOff(this.resource.continue_url);
  }

  private params(): Record<string, unknown> {
    return { [this.kind]: this.resource };
  }

  private context(): ViewContext {
    return {
      resource: this.resource,
      kind: this.kind,
      businessName: this.session.config.businessName,
      delegated: new Set(this.session.delegate),
      required: this.session.config.required,
      busy: this.busy,
      edit: (edit) => void this.edit(edit),
      pay: (choice) => void this.pay(choice),
      changeAddress: () => void this.changeAddress(),
      finishCart: () => this.finishCart(),
    };
  }

  /** `preset`: the follow-up that picks the first delivery options, made once per edit of the buyer. */
  private async edit(edit: Edit, preset = false): Promise<void> {
    if (this.busy) return;
    this.notice = undefined;
    const answer = await this.call(`update_${this.kind}`, updateBody(this.resource, edit));
    const next = answer && this.resourceOf(answer);
    if (next) this.apply(next);
    // What was saved now shows as the store answered it (normalized), not as it was typed.
    this.render(next ? SAVED_BY[edit.part] : undefined);
    const defaults = next && !preset && edit.part === 'fulfillment' ? defaultOptions(next) : undefined;
    if (defaults) await this.edit(defaults, true);
  }

  private async pay(choice: PaymentChoice): Promise<void> {
    if (this.busy) return;
    this.notice = undefined;
    // An order the store is still placing is only looked at again, never paid twice.
    if (this.resource.status === 'complete_in_progress') return this.settle(await this.call('get_checkout', {}));
    // Nothing is paid (nor the host asked for a credential) before the total is final.
    if (this.resource.status !== 'ready_for_complete') return this.render();
    let instruments: Instrument[] = [];
    if (this.session.delegate.includes('payment.credential')) {
      this.setBusy(true);
      const response = await this.link.request('payment.credential_request', this.params());
      const result = response.result as { proto?: { status?: string }; messages?: ProtoMessage[]; checkout?: Resource } | undefined;
      instruments = result?.proto?.status === 'success' ? (result.checkout?.payment?.instruments ?? []) : [];
      if (instruments.length === 0) {
        this.notice = result?.messages?.[0]?.content ?? response.error?.message ?? 'Payment was cancelled. Nothing was charged.';
        return this.setBusy(false);
      }
      this.busy = false;
    } else if (choice.handlerId) {
      instruments = [
        {
          handler_id: choice.handlerId,
          type: choice.type ?? 'card',
          selected: true,
          credential: { type: 'PAYMENT_GATEWAY', token: choice.token ?? '' },
          display: { description: 'Sandbox test card' },
        },
      ];
    }
    this.settle(await this.call('complete_checkout', instruments.length > 0 ? { payment: { instruments } } : {}));
  }

  /** After complete (or a look at an order being placed): the confirmation, the handoff, or the reason to try again. */
  private settle(answer: Answer | undefined): void {
    const next = answer && this.resourceOf(answer);
    if (!next) return this.render();
    if (next.status === 'completed') {
      this.notice = undefined;
      this.resource = next;
      this.end(confirmation(next, this.session.config.businessName));
      this.link.notify('complete', this.params());
      return;
    }
    this.apply(next);
    if (next.status === 'requires_escalation' && next.continue_url) return this.handOff(next.continue_url);
    if (next.status === 'complete_in_progress') this.notice = 'The store is still placing your order. Check its status again in a moment.';
    // An answer that only its messages refuse (an eligibility claim not verified) says why there.
    else this.notice ??= errorText(next.messages) || 'The payment did not go through.';
    this.render();
  }

  /** The host picks the address (fulfillment.address_change delegated); its methods replace the page's. */
  private async changeAddress(): Promise<void> {
    if (this.busy) return;
    this.setBusy(true);
    const response = await this.link.request('fulfillment.address_change_request', this.params());
    this.busy = false;
    const result = response.result as
      { proto?: { status?: string }; checkout?: { fulfillment?: { methods?: FulfillmentMethod[] } } } | undefined;
    const methods = result?.proto?.status === 'success' ? result.checkout?.fulfillment?.methods : undefined;
    if (!methods) return this.render();
    await this.edit({ part: 'fulfillment', methods: methodRequests(methods) });
  }

  private finishCart(): void {
    this.link.notify('complete', this.params());
    this.end(
      h(
        'section',
        { class: 'card outcome' },
        h('h2', { id: 'outcome-title', tabindex: -1 }, 'Your cart is ready'),
        h('p', {}, 'Continue to checkout in the app you are shopping in.'),
      ),
    );
  }

  /** The store takes payment (or confirmation) on its own site: the host navigates, or the buyer follows the link. */
  private handOff(url: string): void {
    const why =
      this.resource.messages?.find((m) => m.severity === 'requires_buyer_input')?.content ??
      `${this.session.config.businessName} takes payment on its own site.`;
    this.link.error([{ type: 'error', code: 'requires_escalation', severity: 'unrecoverable', content: why }], url);
    this.end(handoff(url, this.session.config.businessName, why));
  }

  private async call(operation: string, payload: Record<string, unknown>): Promise<Answer | undefined> {
    this.setBusy(true);
    const answer = await this.gateway.call(operation, payload);
    this.busy = false;
    if (SESSION_GONE.has(answer.status)) {
      this.sessionGone(answer);
      return undefined;
    }
    return answer;
  }

  /**
   * The resource a 2xx answer carries (an application error such as a declined card still carries
   * the session: proto.status error, with messages); anything else becomes the notice the buyer reads.
   */
  private resourceOf(answer: Answer): Resource | undefined {
    const body = answer.body as {
      proto?: { status?: string };
      messages?: ProtoMessage[];
      content?: string;
      id?: unknown;
      line_items?: unknown;
    };
    const ok = answer.status >= 200 && answer.status < 300 && typeof body.id === 'string' && Array.isArray(body.line_items);
    const failed = !ok || body.proto?.status === 'error';
    if (failed) {
      this.notice = errorText(body.messages) || body.content || `The store answered ${answer.status}. Try again.`;
    }
    return ok ? (body as unknown as Resource) : undefined;
  }

  private apply(next: Resource): void {
    const changes = changeNotifications(this.kind, this.resource, next);
    this.resource = next;
    for (const method of changes) this.link.notify(method, this.params());
  }

  private sessionGone(answer: Answer): void {
    const sent = refusal(answer.body).content;
    const content = typeof sent === 'string' ? sent : 'This page has expired.';
    this.link.error([embeddedError('invalid_state_error', content)], this.session.config.storefrontUrl);
    this.end(problem('This page has expired', content, this.session.config.storefrontUrl));
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.render();
  }

  private end(view: HTMLElement): void {
    this.ending = view;
    this.root.replaceChildren(view);
    this.root.removeAttribute('aria-busy');
    view.querySelector<HTMLElement>('#outcome-title')?.focus();
  }

  /** `saved`: key prefix of the controls whose typed text the last edit saved (dropped, not restored). */
  private render(saved?: string): void {
    if (this.ending) return;
    const active = document.activeElement as HTMLElement | null;
    if (active?.dataset.key) this.focusKey = active.dataset.key;
    for (const input of this.root.querySelectorAll<HTMLInputElement>('input[data-key]:not([type=radio])')) {
      if (input.value !== input.defaultValue) this.typed.set(input.dataset.key!, input.value);
      else this.typed.delete(input.dataset.key!);
    }
    if (saved) for (const key of [...this.typed.keys()]) if (key.startsWith(saved)) this.typed.delete(key);
    const ctx = this.context();
    const checkout = this.kind === 'checkout';
    this.root.setAttribute('aria-busy', String(this.busy));
    this.root.replaceChildren(
      h(
        'div',
        { class: 'layout' },
        h('div', { class: 'main' }, linesSection(ctx), discountsSection(ctx), buyerSection(ctx), checkout ? fulfillmentSection(ctx) : null),
        h(
          'div',
          { class: 'side' },
          summarySection(ctx),
          h('p', { class: 'notice' }, this.notice ?? ''),
          checkout ? paymentSection(ctx) : cartFinishSection(ctx),
        ),
      ),
    );
    for (const [key, value] of this.typed) {
      const input = this.root.querySelector<HTMLInputElement>(`input[data-key="${CSS.escape(key)}"]`);
      if (input) input.value = value;
    }
    if (this.announcer.textContent !== (this.notice ?? '')) this.announcer.textContent = this.notice ?? '';
    const again = this.focusKey && this.root.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.focusKey)}"]`);
    if (again && !(again as HTMLInputElement).disabled) again.focus();
  }
}
