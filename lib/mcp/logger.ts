/**
 * The engine's log sink, supplied by the host. Messages passed here are already redacted.
 */

/** Structured log sink; `fields` carry ids (user, server), never secrets. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything (the default: the host decides where logs go). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
