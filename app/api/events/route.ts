import { requireUser } from "@/lib/use-cases/caller";
import { openCallerEventStream } from "@/lib/use-cases/event-stream";
import { parseQuery, route } from "@/lib/http";
import { eventsQuery } from "./schema";

/**
 * The caller's live events (server statuses, resource updates) as server-sent events: one stream
 * per browser tab, for servers of every workspace the caller belongs to (docs/workbench.md). Each
 * open stream holds one of the caller's and the instance's stream slots (429 past either cap).
 */
export const GET = route(async (request: Request) => {
  const caller = await requireUser();
  const query = parseQuery(request, eventsQuery);
  const stream = await openCallerEventStream(caller, { signal: request.signal, once: query.once === "1" });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
