/**
 * Loaded into the gateway's own process by bench:adapters (`node --import`): the StoreProbe there,
 * each request's store calls sent to the bench over the IPC channel once its answer is written.
 */
import dc from 'node:diagnostics_channel';
import { StoreProbe } from './store-probe.js';

const probe = new StoreProbe();
dc.subscribe('http.server.response.finish', (message) => {
  const id = (message as { request: { headers: Record<string, unknown> } }).request.headers['request-id'];
  if (typeof id === 'string') process.send?.({ id, calls: probe.take(id) });
});
