/**
 * The SSE events of one 2025-era gateway session, kept so a client whose stream dropped can
 * reconnect with `Last-Event-ID` and get what it missed (Streamable HTTP resumability, SEP-1699).
 * With an event store the SDK's transport also opens each SSE stream with a priming event that
 * carries an id and the `retry` interval. Bounded per session (256 events and 512 Ki characters of
 * their JSON, oldest dropped first; the newest event is kept whatever its size), in the session's own
 * memory on the replica that holds the session: it goes when the session goes.
 */
import "server-only";
import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

// Enough for the messages of a few calls in flight; a large result may push older events out,
// and a client asking for those gets what is left (the spec lets a server drop history).
const MAX_EVENTS = 256;
const MAX_BYTES = 512 * 1024;

interface Stored {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

/** One session's event store (the SDK's `EventStore`), bounded by count and by serialized size. */
export class SessionEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly maxEvents = MAX_EVENTS,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /** Keep `message` as the next event of `streamId`; its id names the stream and the order. */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.seq += 1;
    const bytes = JSON.stringify(message).length;
    this.events.push({ seq: this.seq, streamId, message, bytes });
    this.bytes += bytes;
    while (this.events.length > this.maxEvents || (this.bytes > this.maxBytes && this.events.length > 1)) {
      this.bytes -= this.events.shift()?.bytes ?? 0;
    }
    return `${streamId}::${this.seq}`;
  }

  /** The stream an event id belongs to, from the id itself (ids are only ever this store's). */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return parse(eventId)?.streamId;
  }

  /** Send the events of the id's stream that came after it, in order; the stream id. */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = parse(lastEventId);
    if (!last) throw new Error("Unknown event id");
    for (const event of this.events) {
      // The priming event is stored as `{}`: a marker with an id, not a message to replay.
      if (event.streamId !== last.streamId || event.seq <= last.seq || Object.keys(event.message).length === 0) continue;
      await send(`${event.streamId}::${event.seq}`, event.message);
    }
    return last.streamId;
  }
}

function parse(eventId: EventId): { streamId: StreamId; seq: number } | null {
  const at = eventId.lastIndexOf("::");
  const seq = Number(eventId.slice(at + 2));
  if (at <= 0 || !Number.isSafeInteger(seq)) return null;
  return { streamId: eventId.slice(0, at), seq };
}
