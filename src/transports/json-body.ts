/**
 * The JSON body parser for every route: keeps the raw bytes (idempotency fingerprints and
 * content digests need them), refuses absurd nesting before parsing, and rejects prototype
 * poisoning keys (secure-json-parse, as Fastify's own parser and the profile fetcher do).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { ProtocolError } from '../protocol/errors.js';

const MAX_JSON_DEPTH = 64;

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received (declared by this plugin; null for a request without a parsed body). */
    rawBody: Buffer | null;
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

/** What secure-json-parse throws for `__proto__` or `constructor.prototype`, escaped or not. */
const POISON = 'Object contains forbidden prototype property';

/**
 * Whether secure-json-parse must see the text: it could spell a dangerous key (plainly or with
 * \u escapes), or it starts with a byte order mark, which that parser strips and JSON.parse refuses.
 * Any other text parses the same with JSON.parse, without that parser's regular expressions and
 * stack-trace switching (about half the cost of parsing a search request).
 */
function couldPoison(text: string): boolean {
  return text.charCodeAt(0) === 0xfeff || text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

function parseJsonBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new ProtocolError('invalid_json', `request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return couldPoison(text) ? secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' }) : JSON.parse(text);
  } catch (error) {
    if ((error as Error).message === POISON) {
      throw new ProtocolError('invalid_json', 'request body contains a forbidden key (__proto__ or constructor.prototype)');
    }
    throw new ProtocolError('invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
}

async function parseJsonBodies(app: FastifyInstance): Promise<void> {
  app.decorateRequest('rawBody', null);
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
