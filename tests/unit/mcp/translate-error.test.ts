/** SDK and system errors → specific EngineError codes and troubleshooting messages (docs/errors.md, engine). */
import { ProtocolError as McpError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { MESSAGE_TOO_LARGE_RPC_CODE, STREAM_BROKEN_RPC_CODE } from "@/lib/mcp/errors";
import { LaunchRefusedError } from "@/lib/mcp/launch";
import { closedDuring, translateError, type ErrorContext } from "@/lib/mcp/translate-error";

const httpError = (status: number, message: string) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status, statusText: message });

const ctx = (extra: Partial<ErrorContext> = {}): ErrorContext => ({
  serverName: "srv",
  phase: "call",
  secrets: ["hdr-secret-1"],
  url: "https://h.example/mcp",
  timeoutMs: 120_000,
  ...extra,
});
const refused = Object.assign(new TypeError("fetch failed"), {
  cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
});
const notFound = Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND", message: "getaddrinfo ENOTFOUND h.example" } });

describe("translateError", () => {
  it.each([
    ["UnauthorizedError", new UnauthorizedError(), ctx(), "needs_authorization", /needs authorization/],
    ["HTTP 401", httpError(401, "no"), ctx(), "needs_authorization", /needs authorization/],
    ["ECONNREFUSED", refused, ctx(), "unreachable", /cannot reach https:\/\/h\.example\/mcp \(connection refused/],
    ["ENOTFOUND", notFound, ctx(), "unreachable", /host name not found/],
    ["404 on a call: session expired", httpError(404, "gone"), ctx(), "session_expired", /session expired/],
    [
      "400 on a call that carried a session id: session expired",
      httpError(400, "Bad Request: No valid session ID provided"),
      ctx({ sessionId: "sess-1" }),
      "session_expired",
      /session expired \(HTTP 400\)/,
    ],
    ["400 on a call without a session: the request itself", httpError(400, "bad params"), ctx(), "server_error", /HTTP 400: bad params/],
    [
      "502 from a gateway on a call: unreachable",
      httpError(502, "Bad Gateway"),
      ctx(),
      "unreachable",
      /answered HTTP 502: the server behind it/,
    ],
    [
      "503 at connect: the connect's own failure",
      httpError(503, "Service Unavailable"),
      ctx({ phase: "connect" }),
      "server_error",
      /HTTP 503/,
    ],
    [
      "405 at connect",
      httpError(405, "no"),
      ctx({ phase: "connect" }),
      "transport_unavailable",
      /neither Streamable HTTP nor legacy HTTP\+SSE/,
    ],
    [
      "request timeout on a call",
      new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"),
      ctx({ timeoutMs: 1500 }),
      "call_timeout",
      /after 1\.5 s.*raise `timeout`/,
    ],
    [
      "request timeout at connect",
      new SdkError(SdkErrorCode.RequestTimeout, "Request timed out"),
      ctx({ phase: "connect", timeoutMs: 60_000 }),
      "connect_timeout",
      /within 60 s.*raise `connect_timeout`/,
    ],
    [
      "too large",
      new McpError(MESSAGE_TOO_LARGE_RPC_CODE, "result exceeds 10 bytes"),
      ctx(),
      "message_too_large",
      /result exceeds 10 bytes/,
    ],
    [
      "stream broke",
      new McpError(STREAM_BROKEN_RPC_CODE, "the response stream broke: socket hang up"),
      ctx(),
      "stream_broken",
      /srv.*the response stream broke: socket hang up/,
    ],
    ["launch refused", new LaunchRefusedError("sandbox unavailable"), ctx(), "launch_refused", /sandbox unavailable/],
    ["aborted", new SdkError(SdkErrorCode.ConnectionClosed, "x"), ctx({ signal: AbortSignal.abort() }), "cancelled", /cancelled/],
    ["server secret in a message", new Error("bad header hdr-secret-1"), ctx(), "server_error", /bad header \[REDACTED\]/],
  ])("%s", (_name, error, context, code, message) => {
    const translated = translateError(error, context);
    expect(translated.code).toBe(code);
    expect(translated.message).toMatch(message);
    expect(translated.message).not.toContain("hdr-secret-1");
  });
});

describe("closedDuring", () => {
  it("recognises npx's package-not-found in stderr", () => {
    const stderr = "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@nope%2fserver - Not found\n";
    const error = closedDuring(ctx({ phase: "connect", stderr, exit: { code: 1, signal: null } }));
    expect(error.code).toBe("package_not_found");
    expect(error.message).toMatch(/package was not found/);
  });

  it("names the exit status and the stderr tail otherwise", () => {
    const error = closedDuring(ctx({ phase: "call", stderr: "boom", exit: { code: 2, signal: null } }));
    expect(error.code).toBe("connection_closed");
    expect(error.message).toMatch(/during the call \(process exited with code 2\)\nstderr:\nboom/);
  });
});
