/**
 * An agent that keeps one resource (a cart, a checkout: any kind with create, update and read)
 * and writes to it one request at a time through whichever replica it is given, remembering
 * every write the gateway acknowledged (2xx) and every one it did not. Afterwards the resource
 * must show the last acknowledged write, or a later one whose answer was lost: never older.
 */
import { randomUUID } from 'node:crypto';
import { problemWith, send, type Answer, type Target, type Transport } from './operation-client.js';
import type { ResourceKind } from './resources.js';
import type { Tally } from './tally.js';

const ITEMS = ['bouquet_roses', 'pot_ceramic', 'bouquet_tulips', 'vase_glass', 'florist_tee_m_green'];

/** The lines of write number `n`: each write differs from the one before. */
export const linesFor = (n: number) => [
  { item: { id: ITEMS[n % ITEMS.length]! }, quantity: 1 + (n % 7) },
  { item: { id: ITEMS[(n + 2) % ITEMS.length]! }, quantity: 1 },
];

/** item id -> quantity, the part of a resource the writes set. */
const contentOf = (lines: ReadonlyArray<{ item: { id: string }; quantity: number }>) =>
  JSON.stringify(lines.map((l) => [l.item.id, l.quantity] as const).sort(([a], [b]) => a.localeCompare(b)));

export interface AcknowledgedCreate {
  key: string;
  id: string;
  /** Its write number (the body is `linesFor(write)`). */
  write: number;
}

export class ResourceAgent {
  id?: string;
  writes = 0;
  /** Content of the last acknowledged write. */
  acked?: string;
  /** Content of writes sent after it whose answer was not a 2xx (they may or may not have applied). */
  unacknowledged: string[] = [];
  readonly creates: AcknowledgedCreate[] = [];

  constructor(
    readonly profile: string,
    readonly kind: ResourceKind,
    private readonly replicas: readonly Target[],
    private readonly tally: Tally,
    /** 503 codes this scenario expects (an outage); any other 5xx fails it. */
    private readonly allow5xx: readonly string[] = [],
  ) {}

  private check(answer: Answer): Answer {
    this.tally.record(answer);
    const problem = problemWith(answer, this.allow5xx);
    if (problem) throw new Error(`${this.profile}: ${problem}`);
    return answer;
  }

  /** Creates a resource with an idempotency key; remembers it when acknowledged. */
  async create(replica: number, transport: Transport = 'rest'): Promise<Answer> {
    const n = ++this.writes;
    const key = randomUUID();
    const answer = this.check(
      await send(this.replicas[replica]!, {
        op: this.kind.create!,
        transport,
        profile: this.profile,
        key,
        payload: { line_items: linesFor(n) },
      }),
    );
    if (answer.kind === 'success') {
      this.creates.push({ key, id: answer.body.id, write: n });
      if (this.id === undefined) {
        this.id = answer.body.id;
        this.acked = contentOf(linesFor(n));
      }
    }
    return answer;
  }

  /** Replaces the resource's lines with those of the next write. */
  async update(replica: number, transport: Transport = 'rest'): Promise<Answer> {
    const n = ++this.writes;
    const answer = this.check(
      await send(this.replicas[replica]!, {
        op: this.kind.update!,
        transport,
        profile: this.profile,
        id: this.id!,
        payload: { line_items: linesFor(n) },
      }),
    );
    if (answer.kind === 'success') {
      this.acked = contentOf(linesFor(n));
      this.unacknowledged = [];
    } else {
      this.unacknowledged.push(contentOf(linesFor(n)));
    }
    return answer;
  }

  async read(replica: number): Promise<Answer> {
    return this.check(await send(this.replicas[replica]!, { op: this.kind.read, transport: 'rest', profile: this.profile, id: this.id! }));
  }

  /** Why the resource as read does not hold an acknowledged write (undefined when it does). */
  async lostWrite(replica: number): Promise<string | undefined> {
    const answer = await this.read(replica);
    if (answer.kind !== 'success') return `${this.id} cannot be read: ${answer.text}`;
    const content = contentOf(
      answer.body.line_items.map((l: { item: { id: string }; quantity: number }) => ({ item: { id: l.item.id }, quantity: l.quantity })),
    );
    if (content === this.acked || this.unacknowledged.includes(content)) return undefined;
    return `${this.id} holds ${content}, not the acknowledged ${this.acked}`;
  }

  /** Why an acknowledged create is not replayed from its idempotency record (undefined when all are). */
  async lostCreate(replica: number): Promise<string | undefined> {
    for (const created of this.creates) {
      const answer = this.check(
        await send(this.replicas[replica]!, {
          op: this.kind.create!,
          transport: 'rest',
          profile: this.profile,
          key: created.key,
          payload: { line_items: linesFor(created.write) },
        }),
      );
      if (!answer.replayed || answer.body?.id !== created.id)
        return `create ${created.key} (${created.id}) was not replayed: ${answer.text.slice(0, 200)}`;
    }
    return undefined;
  }
}
