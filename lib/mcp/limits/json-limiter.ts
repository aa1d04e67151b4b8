/**
 * Limits for `application/json` (and any other) response bodies, applied while streaming: bytes are
 * counted and the JSON shape scanned as they arrive, and reading stops at the first cap. A JSON
 * body answering a request is replaced by a JSON-RPC error naming the cap, so the call fails at
 * once; other bodies (OAuth metadata, errors) end early and fail to parse.
 */
import { STREAM_BROKEN_RPC_CODE } from "../errors";
import { jsonErrorBody, type BodyProcessor, type Emit } from "./body-processor";
import type { ConnectionGuard, RpcId } from "./connection-guard";
import { describeRefusal, JsonShapeScanner } from "./json-shape";
import { overCap } from "./sse-limiter";

/** Processor for one JSON body: buffered (at most the cap) so an error can replace it whole. */
export class JsonLimiter implements BodyProcessor {
  private readonly scanner: JsonShapeScanner;
  private parts: Uint8Array[] = [];
  private bytes = 0;
  private failed = false;

  constructor(
    private readonly guard: ConnectionGuard,
    private readonly ids: RpcId[],
    private readonly json: boolean,
  ) {
    this.scanner = new JsonShapeScanner(guard.limits.maxJsonDepth, guard.limits.maxJsonMembers);
  }

  push(chunk: Uint8Array, emit: Emit): boolean {
    this.bytes += chunk.length;
    const max = this.guard.limits.maxMessageBytes;
    if (this.bytes > max) return this.fail(overCap(max), emit);
    if (this.json) {
      const refusal = this.scanner.pushBytes(chunk);
      if (refusal) return this.fail(describeRefusal(refusal), emit);
      this.parts.push(chunk);
    } else emit(chunk);
    return true;
  }

  end(emit: Emit): void {
    if (this.failed) return;
    for (const part of this.parts) emit(part);
    this.parts = [];
  }

  broken(reason: string, emit: Emit): void {
    this.parts = [];
    if (this.json && this.ids.length > 0) emit(jsonErrorBody(this.ids[0], `the response broke: ${reason}`, STREAM_BROKEN_RPC_CODE));
  }

  private fail(reason: string, emit: Emit): false {
    this.failed = true;
    this.parts = [];
    this.guard.noteRefused(reason);
    if (this.json && this.ids.length > 0) emit(jsonErrorBody(this.ids[0], reason));
    return false;
  }
}
