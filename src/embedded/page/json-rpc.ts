/** JSON-RPC 2.0 messages as the embedded protocol uses them (spec part 2 §6.2). */
export interface Request {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: Record<string, unknown>;
}
interface Notification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
export interface Response {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number | string; message: string; data?: unknown };
}
export type Message = Request | Notification | Response;

export const METHOD_NOT_FOUND = -32601;

/** A JSON-RPC message, from an object or (native hosts) its JSON text; undefined for anything else. */
export function parseMessage(data: unknown): Message | undefined {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') return undefined;
  return value as Message;
}

export const isResponse = (m: Message): m is Response => !('method' in m) && 'id' in m;
export const isRequest = (m: Message): m is Request => 'method' in m && 'id' in m && m.id !== undefined;
