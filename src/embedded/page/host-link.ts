/**
 * The page's side of the conversation with its host (spec part 2 §6.2): the ready handshake
 * (delegations, auth, upgrade to a MessagePort, a refusal after which nothing more is sent),
 * requests with their responses, notifications, and the session error.
 */
import { portChannel, type Channel } from './channel.js';
import type { Session } from './config.js';
import { isRequest, isResponse, METHOD_NOT_FOUND, type Message, type Response } from './json-rpc.js';

export interface ProtoMessage {
  type: 'error' | 'warning' | 'info';
  code: string;
  content: string;
  severity?: string;
  path?: string;
}

/** §7 codes with their severities. */
const EMBEDDED_ERRORS = {
  abort_error: 'recoverable',
  security_error: 'unrecoverable',
  invalid_state_error: 'unrecoverable',
  not_supported_error: 'unrecoverable',
  timeout_error: 'recoverable',
} as const;
export type EmbeddedError = keyof typeof EMBEDDED_ERRORS;

export const embeddedError = (code: EmbeddedError, content: string): ProtoMessage => ({
  type: 'error',
  code,
  severity: EMBEDDED_ERRORS[code],
  content,
});

/** `{prefix}.error`: params.error carries the proto envelope (status error), messages and continue_url. */
export function errorNotification(prefix: string, version: string, messages: ProtoMessage[], continueUrl?: string): Message {
  const error = { proto: { version, status: 'error' }, messages, ...(continueUrl && { continue_url: continueUrl }) };
  return { jsonrpc: '2.0', method: `${prefix}.error`, params: { error } };
}

export type Handshake =
  { status: 'ready'; credential?: string } | { status: 'refused'; messages: ProtoMessage[] } | { status: 'failed'; reason: string };

export class HostLink {
  private channel: Channel;
  private readonly pending = new Map<string, (response: Response) => void>();
  private sequence = 0;
  /** After the host refused ready, nothing more is sent (spec: handshake failure). */
  private silent = false;

  constructor(
    private readonly session: Session,
    channel: Channel,
  ) {
    this.channel = channel;
    this.attach(channel);
  }

  get channelName(): Channel['name'] {
    return this.channel.name;
  }

  get proto() {
    return { version: this.session.version, status: 'success' as const };
  }

  async handshake(): Promise<Handshake> {
    // Opened on its own (no frame, no webview): nobody to greet.
    if (this.channel.name === 'none') return { status: 'ready' };
    // The URL token carries the session; `auth` only when the business also requires a credential.
    const auth = this.session.config.auth;
    const params: Record<string, unknown> = { delegate: this.session.delegate, ...(auth && { auth: { type: auth.type } }) };
    for (;;) {
      const response = await this.request('ready', params);
      const result = response.result;
      if (response.error || !result)
        return this.refuse([embeddedError('invalid_state_error', response.error?.message ?? 'The host did not accept ready.')]);
      const proto = result.proto as { status?: string; version?: string } | undefined;
      if (proto?.status !== 'success') return this.refuse((result.messages as ProtoMessage[] | undefined) ?? []);
      const port = (result.upgrade as { port?: unknown } | undefined)?.port;
      if (port instanceof MessagePort) {
        // Everything else in this result is discarded; a fresh ready goes over the port, and only it is used.
        this.channel.close();
        this.channel = portChannel(port);
        this.attach(this.channel);
        continue;
      }
      if (proto.version !== this.session.version) {
        return this.fail(
          'not_supported_error',
          `The host confirmed protocol version ${String(proto.version)}; this session speaks ${this.session.version}.`,
        );
      }
      // A credential the host sends anyway travels to the gateway as EP-Auth, like ep_auth.
      const credential = result.credential;
      return { status: 'ready', ...(typeof credential === 'string' && credential !== '' && { credential }) };
    }
  }

  /**
   * `{prefix}.auth`: a fresh credential of the business's type from the host. A `recoverable` error
   * result is asked once more; any other failure is the session error (upstream EP "Error Escalation"),
   * after which the page sends nothing more.
   */
  async credential(type: string): Promise<string | undefined> {
    for (let attempt = 1; ; attempt++) {
      const response = await this.request('auth', { type });
      const result = response.result;
      const proto = result?.proto as { status?: string } | undefined;
      if (proto?.status === 'success' && typeof result?.credential === 'string' && result.credential !== '') return result.credential;
      const messages = (result?.messages as ProtoMessage[] | undefined) ?? [];
      if (attempt < 2 && messages.length > 0 && messages.every((m) => m.severity === 'recoverable')) continue;
      const why = messages.map((m) => m.content).join(' ') || response.error?.message || 'the host gave no credential';
      this.error(
        [embeddedError('not_supported_error', `The app could not authorize this session: ${why}`)],
        this.session.config.storefrontUrl,
      );
      return undefined;
    }
  }

  /** A request (`{prefix}.{name}`); the host's response, or an error response if the channel dies. */
  request(name: string, params: Record<string, unknown>): Promise<Response> {
    const id = `${name.replace(/\W/g, '_')}_${++this.sequence}`;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ jsonrpc: '2.0', id, method: this.method(name), params });
    });
  }

  notify(name: string, params: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', method: this.method(name), params });
  }

  /** The session error notification (`ec.error` / `ep.cart.error`): the host tears down, so nothing follows it. */
  error(messages: ProtoMessage[], continueUrl: string | undefined): void {
    this.send(errorNotification(this.session.prefix, this.session.version, messages, continueUrl));
    this.silent = true;
  }

  private fail(code: EmbeddedError, content: string): Handshake {
    this.error([embeddedError(code, content)], this.session.config.storefrontUrl);
    this.silent = true;
    return { status: 'failed', reason: content };
  }

  private refuse(messages: ProtoMessage[]): Handshake {
    this.silent = true;
    return { status: 'refused', messages };
  }

  private send(message: Message): void {
    if (!this.silent) this.channel.send(message);
  }

  private method(name: string): string {
    return `${this.session.prefix}.${name}`;
  }

  private attach(channel: Channel): void {
    channel.listen((message, ports) => {
      if (isResponse(message)) {
        const resolve = this.pending.get(String(message.id));
        if (!resolve) return;
        this.pending.delete(String(message.id));
        const upgrade = message.result?.upgrade as { port?: unknown } | undefined;
        // A port may arrive in the event's transfer list rather than inside the result.
        if (upgrade && !(upgrade.port instanceof MessagePort) && ports[0]) upgrade.port = ports[0];
        resolve(message);
      } else if (isRequest(message)) {
        // The host sends no requests in this protocol: a transport error, never an application code.
        this.send({ jsonrpc: '2.0', id: message.id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${message.method}` } });
      }
    });
  }
}
