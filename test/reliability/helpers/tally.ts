/**
 * Counts what a scenario sent and got back, and prints one line per scenario
 * ("[reliability] <scenario> {...}") with the numbers docs/reliability.md reports.
 */
import type { Answer } from './operation-client.js';

export class Tally {
  requests = 0;
  readonly byClass: Record<string, number> = {};
  readonly extra: Record<string, number | string> = {};

  constructor(readonly scenario: string) {}

  /** By the HTTP status the answer stands for (a JSON-RPC error's `http_status`); failed outcomes apart. */
  record(answer: Pick<Answer, 'status' | 'kind'> & { body?: any }): void {
    this.requests++;
    const status = answer.kind === 'transport' ? (answer.body?.data?.http_status ?? answer.status) : answer.status;
    const key = answer.kind === 'outcome' ? 'outcome' : `${Math.floor(status / 100)}xx`;
    this.byClass[key] = (this.byClass[key] ?? 0) + 1;
  }

  count(name: string, by = 1): void {
    this.extra[name] = Number(this.extra[name] ?? 0) + by;
  }

  set(name: string, value: number | string): void {
    this.extra[name] = value;
  }

  get fiveHundreds(): number {
    return this.byClass['5xx'] ?? 0;
  }

  print(): void {
    console.log(`[reliability] ${this.scenario} ${JSON.stringify({ requests: this.requests, ...this.byClass, ...this.extra })}`);
  }
}
