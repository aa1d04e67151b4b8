/**
 * An OTLP/HTTP receiver for tests: a node:http server that takes `POST /v1/traces` and
 * `/v1/metrics` in both encodings (http/json, and http/protobuf through a small wire-format reader
 * of the trace fields the tests look at) and keeps every span and every raw body.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A received span, its ids as lowercase hex. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number };
}

/** The receiver's handle. */
export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every body received, decoded as text (protobuf bodies as latin1: strings stay findable). */
  bodies: { path: string; contentType: string; text: string }[];
  close(): Promise<void>;
}

/** Start the receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: OtlpReceiver["bodies"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = req.headers["content-type"] ?? "";
      const json = contentType.includes("json");
      bodies.push({ path: req.url ?? "", contentType, text: body.toString(json ? "utf8" : "latin1") });
      if (req.url === "/v1/traces") spans.push(...(json ? spansFromJson(JSON.parse(body.toString("utf8"))) : spansFromProtobuf(body)));
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" }).end(json ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

type JsonValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: JsonValue[] };
};

function jsonValue(value: JsonValue): unknown {
  if (value.arrayValue) return value.arrayValue.values.map(jsonValue);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

function spansFromJson(request: {
  resourceSpans?: {
    scopeSpans?: { spans?: (Omit<ReceivedSpan, "attributes"> & { attributes?: { key: string; value: JsonValue }[] })[] }[];
  }[];
}): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((r) =>
    (r.scopeSpans ?? []).flatMap((s) =>
      (s.spans ?? []).map((span) => ({
        ...span,
        parentSpanId: span.parentSpanId ?? "",
        attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, jsonValue(a.value)])),
      })),
    ),
  );
}

// Protobuf wire format: (field number, wire type) keys, varints and length-delimited fields.
type Field = { field: number; wire: number; bytes?: Buffer; varint?: bigint; fixed?: Buffer };

function fields(buffer: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = () => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++];
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ field, wire, varint: varint() });
    else if (wire === 1 || wire === 5 || wire === 2) {
      const length = wire === 1 ? 8 : wire === 5 ? 4 : Number(varint());
      const part = buffer.subarray(at, at + length);
      at += length;
      out.push(wire === 2 ? { field, wire, bytes: part } : { field, wire, fixed: part });
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const sub = (buffer: Buffer, n: number) =>
  fields(buffer)
    .filter((f) => f.field === n && f.bytes)
    .map((f) => f.bytes!);

// AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array (ArrayValue: 1 repeated AnyValue).
function anyValue(buffer: Buffer): unknown {
  const [f] = fields(buffer);
  if (!f) return undefined;
  if (f.field === 1) return f.bytes!.toString("utf8");
  if (f.field === 2) return f.varint === 1n;
  if (f.field === 3) return Number(f.varint);
  if (f.field === 4) return f.fixed!.readDoubleLE(0);
  if (f.field === 5) return sub(f.bytes!, 1).map(anyValue);
  return undefined;
}

// ExportTraceServiceRequest 1: ResourceSpans (2: ScopeSpans (2: Span)). Span: 1 trace_id, 2 span_id,
// 4 parent_span_id, 5 name, 6 kind, 9 attributes (KeyValue: 1 key, 2 AnyValue), 15 status (3 code).
function spansFromProtobuf(body: Buffer): ReceivedSpan[] {
  return sub(body, 1).flatMap((resource) =>
    sub(resource, 2).flatMap((scope) =>
      sub(scope, 2).map((span) => {
        const all = fields(span);
        const bytes = (n: number) => all.find((f) => f.field === n)?.bytes ?? Buffer.alloc(0);
        const status = sub(span, 15)[0];
        return {
          traceId: bytes(1).toString("hex"),
          spanId: bytes(2).toString("hex"),
          parentSpanId: bytes(4).toString("hex"),
          name: bytes(5).toString("utf8"),
          kind: Number(all.find((f) => f.field === 6)?.varint ?? 0n),
          attributes: Object.fromEntries(
            sub(span, 9).map((kv) => [sub(kv, 1)[0]?.toString("utf8"), anyValue(sub(kv, 2)[0] ?? Buffer.alloc(0))]),
          ),
          status: status ? { code: Number(fields(status).find((f) => f.field === 3)?.varint ?? 0n) } : undefined,
        };
      }),
    ),
  );
}
