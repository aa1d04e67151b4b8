/**
 * A response body read from Node's socket stream through a limit processor, without web streams
 * (docs/performance.md#the-mcp-request-lane). The Streamable HTTP transport reads SSE answers from it
 * event by event (lib/mcp/http-transport.ts); `text()` and `json()` read it whole. Anything else that
 * treats it as a `ReadableStream` gets one, made on first use, so code that does not know the lane
 * still works, only without the saving.
 */
import type { Readable } from "node:stream";
import type { BodyProcessor, Emit } from "./body-processor";

/** How a consumer takes the body: each chunk the processor passed on, then the end (with a reason when it broke). */
export interface BodyListener {
  chunk(bytes: Uint8Array): void;
  end(error?: string): void;
}

/** A limited body over a Node stream. Read it once: `consume`, `bytes`, or as a web stream. */
export class NodeBody {
  private listener?: BodyListener;
  private finished = false;
  private web?: ReadableStream<Uint8Array>;
  private failure?: string;

  constructor(
    private readonly source: Readable,
    private readonly processor: BodyProcessor,
    private readonly onEnd: () => void,
  ) {
    // Listened at once: an unheard 'error' on a stream stops the process.
    source.on("error", (error) => {
      this.failure ??= error.message;
    });
  }

  /** Whether a reader has taken the body. */
  get used(): boolean {
    return this.listener !== undefined;
  }

  /** Start reading: `listener` gets each checked chunk as it arrives, then the end. */
  consume(listener: BodyListener): void {
    if (this.listener) throw new TypeError("the response body was already read");
    this.listener = listener;
    const emit: Emit = (bytes) => listener.chunk(bytes);
    const source = this.source;
    source.on("data", (chunk: Buffer) => {
      if (this.finished) return;
      if (!this.processor.push(chunk, emit)) {
        // Over a cap: the reason was emitted; stop reading and free the connection.
        this.finish();
        source.destroy();
      }
    });
    source.once("end", () => {
      if (this.finished) return;
      this.processor.end(emit);
      this.finish();
    });
    source.once("close", () => {
      if (this.finished) return;
      const reason = this.failure ?? "the connection closed before the answer was complete";
      this.processor.broken(reason, emit);
      this.finish(reason);
    });
  }

  /** The whole body (what the processor passed on). */
  bytes(): Promise<Uint8Array> {
    return new Promise((resolve) => {
      const parts: Uint8Array[] = [];
      this.consume({ chunk: (bytes) => parts.push(bytes), end: () => resolve(Buffer.concat(parts)) });
    });
  }

  /** Stop reading and close the connection. */
  cancel(): Promise<void> {
    if (!this.listener) this.consume({ chunk: () => undefined, end: () => undefined });
    if (!this.finished) {
      this.finish();
      this.source.destroy();
    }
    return Promise.resolve();
  }

  /** The body as a web stream, for readers that know nothing of this class. */
  stream(): ReadableStream<Uint8Array> {
    this.web ??= new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.consume({
          chunk: (bytes) => controller.enqueue(bytes),
          end: () => controller.close(),
        });
      },
      cancel: () => this.cancel(),
    });
    return this.web;
  }

  // The part of the ReadableStream interface the SDK's own readers use (its SSE reader pipes the
  // body through decoders; its JSON path and error paths read or cancel it), on the web stream.
  getReader(): ReadableStreamDefaultReader<Uint8Array> {
    return this.stream().getReader();
  }
  pipeThrough<T>(transform: ReadableWritablePair<T, Uint8Array>, options?: StreamPipeOptions): ReadableStream<T> {
    return this.stream().pipeThrough(transform, options);
  }
  get locked(): boolean {
    return this.web?.locked ?? false;
  }

  private finish(error?: string): void {
    this.finished = true;
    this.onEnd();
    this.listener?.end(error);
  }
}

/**
 * A `Response` whose body is a NodeBody: status and headers are the real ones; `body` is the
 * NodeBody (shaped like a ReadableStream) and the read methods read it directly.
 */
export class NodeBodyResponse extends Response {
  constructor(
    private readonly nodeBody: NodeBody,
    init: { status: number; statusText: string; headers: Headers; url: string },
  ) {
    super(null, { status: init.status, statusText: safeStatusText(init.statusText), headers: init.headers });
    // Redirect checks downstream read where the response really came from.
    Object.defineProperty(this, "url", { value: init.url });
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.nodeBody as unknown as ReadableStream<Uint8Array<ArrayBuffer>>;
  }
  override get bodyUsed(): boolean {
    return this.nodeBody.used;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.nodeBody.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  override async text(): Promise<string> {
    return Buffer.from(await this.nodeBody.bytes()).toString("utf8");
  }
  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return (await this.nodeBody.bytes()) as Uint8Array<ArrayBuffer>;
  }
  override async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get("content-type") ?? "" });
  }
  override clone(): Response {
    throw new TypeError("a streamed MCP response cannot be cloned");
  }
}

/** The NodeBody behind `body`, when it is one. */
export function nodeBodyOf(body: unknown): NodeBody | undefined {
  return body instanceof NodeBody ? body : undefined;
}

// The Response constructor refuses a reason phrase outside the token rules; the status is what counts.
function safeStatusText(text: string): string {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(text) ? text : "";
}
