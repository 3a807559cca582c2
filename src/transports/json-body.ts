/**
 * The JSON body parser for every route: keeps the raw bytes (idempotency fingerprints and
 * content digests need them), refuses absurd nesting before parsing, and rejects prototype
 * poisoning keys.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ProtocolError } from '../protocol/errors.js';

export const MAX_JSON_DEPTH = 64;

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

/** Nesting depth of a JSON text, counted outside strings; stops early past the limit. */
function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

function rejectPoison(key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && value !== null && typeof value === 'object' && 'prototype' in value)) {
    throw new ProtocolError(400, 'invalid_json', 'request body contains a forbidden key (__proto__ or constructor.prototype)');
  }
  return value;
}

export function parseJsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new ProtocolError(400, 'invalid_json', `request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // The reviver costs a second walk, so only texts that could spell a dangerous key pay for it.
  const suspicious = text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
  try {
    return suspicious ? JSON.parse(text, rejectPoison) : JSON.parse(text);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(400, 'invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
}

async function parseJsonBodies(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'buffer' },
    (req: FastifyRequest, body: Buffer, done) => {
      req.rawBody = body;
      try {
        done(null, parseJsonBody(body));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}

/** Through fastify-plugin, so every transport's scope parses JSON this way. */
export const jsonBody = fp(parseJsonBodies, { name: 'json-body' });
