/**
 * The shape every limited response body shares: a processor sees each chunk as it arrives and
 * decides what to pass on, and `limitedBody` pumps the upstream body through it. Upstream errors
 * reach the processor too, so a request whose stream breaks fails at once with the reason.
 */
import { limitErrorResponse, type RpcId } from "./connection-guard";

/** Where a processor writes what it passes on. */
export type Emit = (bytes: Uint8Array) => void;

/** Per-body limit logic. */
export interface BodyProcessor {
  /** One upstream chunk; false stops reading (the upstream is cancelled, freeing its socket). */
  push(chunk: Uint8Array, emit: Emit): boolean;
  /** The upstream ended normally. */
  end(emit: Emit): void;
  /** The upstream failed (reset, aborted). */
  broken(reason: string, emit: Emit): void;
}

/** Pump `upstream` through `processor`; `onEnd` runs once however the body ends. */
export function limitedBody(upstream: ReadableStream<Uint8Array>, processor: BodyProcessor, onEnd: () => void): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    onEnd();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const emit: Emit = (bytes) => controller.enqueue(bytes);
      try {
        // Read until something was passed on (or the body is over), as a pull must make progress.
        while (true) {
          const before = controller.desiredSize;
          const { value, done: upstreamDone } = await reader.read();
          if (upstreamDone) {
            processor.end(emit);
            controller.close();
            return finish();
          }
          if (!processor.push(value, emit)) {
            await reader.cancel().catch(() => undefined); // already failing; the reason was emitted
            controller.close();
            return finish();
          }
          if (controller.desiredSize !== before) return;
        }
      } catch (error) {
        processor.broken(error instanceof Error ? error.message : String(error), emit);
        controller.close();
        finish();
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
}

const encoder = new TextEncoder();

/** An SSE event carrying a JSON-RPC error for `id` (default: a cap's code). */
export function sseErrorEvent(id: RpcId, message: string, code?: number): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(limitErrorResponse(id, message, code))}\n\n`);
}

/** A JSON body carrying a JSON-RPC error for `id` (default: a cap's code). */
export function jsonErrorBody(id: RpcId, message: string, code?: number): Uint8Array {
  return encoder.encode(JSON.stringify(limitErrorResponse(id, message, code)));
}
