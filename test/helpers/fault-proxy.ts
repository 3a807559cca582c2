/**
 * A pass-through HTTP proxy in front of a real server (Medusa) that fails the next N requests on
 * demand, for the contract suite's backend faults: 429 with Retry-After, 503, a 200 whose body is
 * not JSON, or a request accepted and never answered. Everything else reaches the real server
 * unchanged: the server is never imitated, only cut off.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BackendFault } from '../adapters/contract/contract-suite.js';

export interface FaultProxy {
  url: string;
  failNext(fault: BackendFault, count?: number): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let pending: BackendFault[] = [];
  const hanging = new Set<ServerResponse>();
  const answer = (fault: BackendFault, res: ServerResponse) => {
    if (fault === 'hang') {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    if (fault === 'throttle')
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"message":"Too many requests"}');
    else if (fault === 'server_error') res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"Service unavailable"}');
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>');
  };
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (back) => {
        res.writeHead(back.statusCode ?? 502, back.headers);
        back.pipe(res);
      },
    );
    out.once('error', () => res.destroy());
    req.pipe(out);
  };
  const server = createServer((req, res) => {
    const fault = pending.shift();
    if (fault) {
      req.resume();
      answer(fault, res);
    } else forward(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failNext: (fault, count = 1) => pending.push(...Array.from({ length: count }, () => fault)),
    reset: () => {
      pending = [];
      for (const res of hanging) res.destroy();
    },
    close: () =>
      new Promise((done) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
