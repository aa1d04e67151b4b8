/** The app's log sink for the engine: one line per entry on stderr, redacted once more. */
import { debugLogging } from "../env";
import type { Logger } from "../mcp/logger";
import { redact } from "../redact";

function line(level: string, message: string, fields?: Record<string, unknown>): string {
  return redact(`[switchboard] ${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ""}`);
}

/** Logs info and above; `SWITCHBOARD_LOG_LEVEL=debug` adds debug lines. */
export const consoleLogger: Logger = {
  debug: (message, fields) => {
    if (debugLogging()) console.error(line("debug", message, fields));
  },
  info: (message, fields) => console.error(line("info", message, fields)),
  warn: (message, fields) => console.error(line("warn", message, fields)),
  error: (message, fields) => console.error(line("error", message, fields)),
};
