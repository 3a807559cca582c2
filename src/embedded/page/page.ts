/**
 * The embedded page's entry: reads its config and the host's parameters, picks the channel
 * (native globals first, installed before ready; then the embedding window), and runs the session,
 * or the error path when the host's version is missing or wrong.
 */
import { App } from './app.js';
import { h } from './dom.js';
import { nativeChannel, nativeConsumer, noChannel, webChannel, type Channel } from './channel.js';
import { readConfig, readSession, type ColorScheme, type PageConfig } from './config.js';
import { Gateway } from './gateway.js';
import { embeddedError, errorNotification, HostLink } from './host-link.js';
import { problem } from './view-outcome.js';

function channelFor(config: PageConfig, version: string): Channel {
  const consumer = nativeConsumer(window, config.kind);
  if (consumer) return nativeChannel(window, config.kind, consumer);
  if (window.parent === window) return noChannel();
  const prefix = config.kind === 'checkout' ? 'ec' : 'ep.cart';
  return webChannel(window, config.hostOrigins, (event) => {
    // A window that is not the allowed host: it hears security_error, and nothing it sent is processed.
    const source = event.source as Window | null;
    const refusal = errorNotification(prefix, version, [
      embeddedError('security_error', `Messages from ${event.origin} are not accepted here.`),
    ]);
    source?.postMessage(refusal, { targetOrigin: event.origin === 'null' ? '*' : event.origin });
  });
}

function applyColorScheme(scheme: ColorScheme | undefined): void {
  if (scheme) document.documentElement.dataset.colorScheme = scheme;
}

function main(): void {
  const root = document.getElementById('app')!;
  const config = readConfig(document);
  document.body.prepend(h('header', {}, h('h1', {}, config.businessName)));
  const read = readSession(config, location.search);
  const version = read.ok ? read.session.version : config.version;
  const channel = channelFor(config, version);
  if (!read.ok) {
    channel.send(
      errorNotification(
        config.kind === 'checkout' ? 'ec' : 'ep.cart',
        version,
        [embeddedError('not_supported_error', read.problem)],
        config.storefrontUrl,
      ),
    );
    root.replaceChildren(problem('This page cannot be shown here', read.problem, config.storefrontUrl));
    return;
  }
  applyColorScheme(read.session.colorScheme);
  const link = new HostLink(read.session, channel);
  const auth = config.auth;
  const renew = auth && (() => link.credential(auth.type));
  void new App(read.session, link, new Gateway(config.rpc, read.session.auth, renew), root).run();
}

main();
