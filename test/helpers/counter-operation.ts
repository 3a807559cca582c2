/**
 * Two small operations that exercise the pipeline without any capability logic: a state-changing
 * counter (to observe executions under idempotency) and a read that can fail as a business outcome.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { defineOperation, failure, success } from '../../src/capabilities/operation.js';
import { CAPABILITY } from '../../src/protocol/capability-registry.js';
import { errorMessage } from '../../src/protocol/messages.js';

const key = (tenant: string, id: string) => `test-counter:${tenant}:${id}`;

const bumpCounter = defineOperation({
  name: 'bump_counter',
  title: 'Bump a counter',
  description: 'Adds `by` to a counter; test-only.',
  capability: CAPABILITY.cart,
  rest: { method: 'POST', path: '/counters/{id}/bump', status: 201 },
  mcp: { id: true, payload: 'cart' },
  input: Type.Object({ by: Type.Integer({ minimum: 1, maximum: 100 }), note: Type.Optional(Type.String({ maxLength: 50 })) }),
  idempotency: { mcp: 'optional' },
  async handler(ctx, { id, payload }) {
    for (;;) {
      const current = await ctx.store.get<number>(key(ctx.tenant.id, id!));
      await sleep(20); // widen the race window so concurrent duplicates would show
      const value = (current?.value ?? 0) + payload.by;
      if ((await ctx.store.compareAndSet(key(ctx.tenant.id, id!), current?.version ?? 0, value, 60_000)) !== null) {
        return success({ id, value }, 201);
      }
    }
  },
});

const readCounter = defineOperation({
  name: 'read_counter',
  title: 'Read a counter',
  description: 'Reads a counter; test-only.',
  capability: CAPABILITY.cart,
  rest: { method: 'GET', path: '/counters/{id}', status: 200 },
  mcp: { id: true },
  async handler(ctx, { id }) {
    const current = await ctx.store.get<number>(key(ctx.tenant.id, id!));
    if (!current) return failure([errorMessage('not_found', `counter ${id} does not exist`, 'unrecoverable')]);
    return success({ id, value: current.value });
  },
});

export const counterOperations = [bumpCounter, readCounter];
