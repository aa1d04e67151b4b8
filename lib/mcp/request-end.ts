/**
 * The engine's report of a finished request to the host (`onRequestEnd`, used for usage records):
 * the event is built only when the hook is set, and a failing hook never fails the request.
 */
import type { ResolvedPoolOptions } from "./pool-options";
import type { RequestEndEvent } from "./types";

/** Hand one finished request of server `serverName` to the host's hook, if any; its errors are logged. */
export function reportRequestEnd(
  options: Pick<ResolvedPoolOptions, "onRequestEnd" | "logger">,
  serverName: string,
  build: () => RequestEndEvent,
): void {
  const hook = options.onRequestEnd;
  if (!hook) return;
  try {
    hook(build());
  } catch (error) {
    // Bookkeeping must never fail the request it describes.
    options.logger.warn("request hook failed", { server: serverName, error: String(error) });
  }
}
