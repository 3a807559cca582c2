/** The protocol version this gateway speaks and announces. */
export const PROTOCOL_VERSION = '2026-04-08';
