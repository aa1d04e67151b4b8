/**
 * The log a server sends with `notifications/message`, kept per (user, server) connection: bounded
 * (oldest entries dropped first) and redacted as it arrives (the config's secrets and anything that
 * looks like a credential), so what the host shows or hands on never carries a secret.
 */
import type { LoggingLevel, LoggingMessageNotification } from "@modelcontextprotocol/client";
import { redactForDisplay } from "../redact";

/** One entry as kept. */
export interface ServerLogEntry {
  at: number;
  level: LoggingLevel;
  logger?: string;
  /** Redacted text of the entry's `data` (JSON for non-strings), at most `MAX_ENTRY_CHARS`. */
  text: string;
}

/** Entries kept per connection. */
export const MAX_LOG_ENTRIES = 200;
/** Characters kept per entry. */
export const MAX_ENTRY_CHARS = 2000;

/** A bounded, redacted buffer of one connection's server log. */
export class ServerLog {
  private readonly entries: ServerLogEntry[] = [];

  constructor(
    private readonly secrets: string[],
    private readonly maxEntries = MAX_LOG_ENTRIES,
  ) {}

  /** Keep one `notifications/message`. */
  add(params: LoggingMessageNotification["params"], at: number): ServerLogEntry {
    const raw = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
    const entry: ServerLogEntry = {
      at,
      level: params.level,
      ...(params.logger ? { logger: redactForDisplay(params.logger, this.secrets, 200) } : {}),
      text: redactForDisplay(raw ?? "", this.secrets, MAX_ENTRY_CHARS),
    };
    this.entries.push(entry);
    if (this.entries.length > this.maxEntries) this.entries.splice(0, this.entries.length - this.maxEntries);
    return entry;
  }

  /** The entries kept, oldest first. */
  list(): ServerLogEntry[] {
    return [...this.entries];
  }
}
