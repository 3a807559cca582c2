/** Message builders (spec part 1 §2.3): the business-outcome layer; each code is a row of the error catalogue. */
import type { Message } from '../../schemas/common.js';
import type { MessageCode, Severity } from './error-catalogue.js';

export const errorMessage = (code: MessageCode, content: string, severity: Severity, path?: string): Message =>
  path === undefined ? { type: 'error', code, severity, content } : { type: 'error', code, severity, content, path };

export const warningMessage = (code: MessageCode, content: string, path?: string): Message =>
  path === undefined ? { type: 'warning', code, content } : { type: 'warning', code, content, path };

export const infoMessage = (code: MessageCode, content: string, path?: string): Message =>
  path === undefined ? { type: 'info', code, content } : { type: 'info', code, content, path };
