/**
 * A store on 127.0.0.1 that answers from a script, for the error shapes a simulator is awkward
 * for (a 429 with Retry-After, an HTML page, cut-off JSON, a hang): each route's answers are given
 * in order and each is used once. A request without a scripted answer gets 599, which the tests
 * see as a failure. Real HTTP, so the adapter's own client (keep-alive, deadline) is what runs.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
  /** Never answered (until the store closes): a store that hangs. */
  hang?: boolean;
}

interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface ScriptedStore {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Answers for `method path` (the path without its query), in order. */
  script(method: string, path: string, ...answers: ScriptedAnswer[]): void;
  /** Every request received, in order. */
  readonly requests: SeenRequest[];
  /** Whether every scripted answer was used. */
  done(): boolean;
  /** Forgets the script, the requests seen, and answers every hanging request. */
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedStore(): Promise<ScriptedStore> {
  const scripts = new Map<string, ScriptedAnswer[]>();
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const answer = scripts.get(`${req.method} ${path}`)?.shift();
    if (!answer) return void res.writeHead(599, { 'content-type': 'text/plain' }).end(`no scripted answer for ${req.method} ${path}`);
    if (answer.hang) {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    const json = typeof answer.body === 'object';
    res
      .writeHead(answer.status, { ...(json && { 'content-type': 'application/json' }), ...answer.headers })
      .end(json ? JSON.stringify(answer.body) : (answer.body ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const reset = () => {
    scripts.clear();
    requests.length = 0;
    for (const res of hanging) res.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    script: (method, path, ...answers) => scripts.set(`${method} ${path}`, [...(scripts.get(`${method} ${path}`) ?? []), ...answers]),
    requests,
    done: () => [...scripts.values()].every((answers) => answers.length === 0),
    reset,
    close: async () => {
      reset();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
