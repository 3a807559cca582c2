/**
 * Loaded into the gateway's own process by bench:adapters (`node --import`): the StoreProbe there,
 * and once each answer is written, its store calls, when the request arrived and was answered
 * (this process's clock: the bench's own client, loopback and scheduling stay outside) and the
 * process's CPU time meanwhile, sent to the bench over the IPC channel.
 */
import dc from 'node:diagnostics_channel';
import { StoreProbe } from './store-probe.js';

const probe = new StoreProbe();
const arrivals = new WeakMap<object, { at: number; cpu: NodeJS.CpuUsage }>();
dc.subscribe('http.server.request.start', (message) => {
  arrivals.set((message as { request: object }).request, { at: performance.now(), cpu: process.cpuUsage() });
});
dc.subscribe('http.server.response.finish', (message) => {
  const finished = performance.now();
  const { request } = message as { request: { headers: Record<string, unknown> } };
  const id = request.headers['request-id'];
  const arrival = arrivals.get(request);
  if (typeof id !== 'string' || !arrival) return;
  const cpu = process.cpuUsage(arrival.cpu);
  process.send?.({ id, calls: probe.take(id), arrived: arrival.at, finished, cpuMs: (cpu.user + cpu.system) / 1000 });
});
