/**
 * The ways a host and the page exchange messages (spec part 2 §6.2 Channels): a web host's window
 * (postMessage, origin checked on every message), a MessagePort the host hands over in its ready
 * result, or a native host's injected globals (JSON text both ways).
 */
import { parseMessage, type Message } from './json-rpc.js';
import type { Kind } from './config.js';

type Receiver = (message: Message, ports: readonly MessagePort[]) => void;

export interface Channel {
  readonly name: 'web' | 'port' | 'native' | 'none';
  send(message: Message): void;
  listen(receive: Receiver): void;
  /** Stops receiving: after an upgrade only the new channel is used. */
  close(): void;
}

/** A message from a window whose origin is not an allowed host, or that is not the embedding one. */
export type Foreign = (event: MessageEvent) => void;

export function webChannel(win: Window, hostOrigins: readonly string[], foreign: Foreign): Channel {
  // The embedding origin when the browser tells it (Chromium, WebKit); otherwise every allowed one:
  // postMessage drops a message whose target origin is not the parent's, so only the real host gets it.
  const ancestor = win.location.ancestorOrigins?.[0];
  let targets = ancestor && hostOrigins.includes(ancestor) ? [ancestor] : [...hostOrigins];
  let receiver: Receiver | undefined;
  const onMessage = (event: MessageEvent) => {
    if (!hostOrigins.includes(event.origin) || event.source !== win.parent) return foreign(event);
    targets = [event.origin];
    const message = parseMessage(event.data);
    if (message && receiver) receiver(message, event.ports);
  };
  win.addEventListener('message', onMessage);
  return {
    name: 'web',
    send: (message) => targets.forEach((origin) => win.parent.postMessage(message, origin)),
    listen: (receive) => (receiver = receive),
    // Later window messages from the host are dropped; foreign ones still get their security_error.
    close: () => (receiver = undefined),
  };
}

export function portChannel(port: MessagePort): Channel {
  return {
    name: 'port',
    send: (message) => port.postMessage(message),
    listen: (receive) => {
      port.onmessage = (event) => {
        const message = parseMessage(event.data);
        if (message) receive(message, event.ports);
      };
    },
    close: () => port.close(),
  };
}

interface Consumer {
  postMessage(message: string): void;
}

type NativeWindow = Window & Record<string, unknown> & { webkit?: { messageHandlers?: Record<string, Consumer | undefined> } };

/** The native host's consumer global, if the page runs in a webview that injected one. */
export function nativeConsumer(win: Window, kind: Kind): Consumer | undefined {
  const name = nativeName(kind);
  const w = win as NativeWindow;
  const direct = w[`${name}Consumer`] as Consumer | undefined;
  if (typeof direct?.postMessage === 'function') return direct;
  const webkit = w.webkit?.messageHandlers?.[`${name}Consumer`];
  return typeof webkit?.postMessage === 'function' ? webkit : undefined;
}

/** Installs `window.Embedded{Cart|Checkout}Protocol` (host to page) at once: it must exist before ready. */
export function nativeChannel(win: Window, kind: Kind, consumer: Consumer): Channel {
  let receiver: Receiver | undefined;
  let open = true;
  (win as NativeWindow)[nativeName(kind)] = {
    postMessage(text: string) {
      const message = parseMessage(text);
      if (open && message && receiver) receiver(message, []);
    },
  };
  return {
    name: 'native',
    send: (message) => consumer.postMessage(JSON.stringify(message)),
    listen: (receive) => (receiver = receive),
    close: () => (open = false),
  };
}

/** Opened on its own (no frame, no webview): the page works, nobody hears it. */
export function noChannel(): Channel {
  return { name: 'none', send: () => undefined, listen: () => undefined, close: () => undefined };
}

const nativeName = (kind: Kind) => (kind === 'cart' ? 'EmbeddedCartProtocol' : 'EmbeddedCheckoutProtocol');
