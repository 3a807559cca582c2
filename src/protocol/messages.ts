/** Message builders (spec part 1 §2.3): the business-outcome layer. */
import type { Message } from '../../schemas/common.js';

type Severity = NonNullable<Message['severity']>;

export const errorMessage = (code: string, content: string, severity: Severity, path?: string): Message =>
  path === undefined ? { type: 'error', code, severity, content } : { type: 'error', code, severity, content, path };

export const warningMessage = (code: string, content: string, path?: string): Message =>
  path === undefined ? { type: 'warning', code, content } : { type: 'warning', code, content, path };

export const infoMessage = (code: string, content: string, path?: string): Message =>
  path === undefined ? { type: 'info', code, content } : { type: 'info', code, content, path };

/** True when any message makes the whole operation fail. */
export const hasUnrecoverable = (messages: readonly Message[]) =>
  messages.some((m) => m.type === 'error' && m.severity === 'unrecoverable');
