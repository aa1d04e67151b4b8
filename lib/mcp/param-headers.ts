/**
 * SEP-2243 (MCP 2026-07-28): a tool may mark primitive input properties with `x-mcp-header`, and the
 * client mirrors their values into `Mcp-Param-<Name>` request headers. A client MUST exclude a tool
 * whose declarations break the rules (it could never call it correctly): the name must be a
 * non-empty HTTP token, unique ignoring case, on a string, integer or boolean property.
 */

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIRRORABLE_TYPES = new Set(["string", "integer", "boolean"]);

/** Why a tool's `x-mcp-header` declarations are invalid, or undefined when they are fine (or absent). */
export function invalidParamHeaders(inputSchema: unknown): string | undefined {
  const properties = (inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!properties || typeof properties !== "object") return undefined;
  const seen = new Set<string>();
  for (const [name, property] of Object.entries(properties)) {
    if (!property || typeof property !== "object" || !("x-mcp-header" in property)) continue;
    const header = (property as Record<string, unknown>)["x-mcp-header"];
    if (typeof header !== "string" || !TOKEN.test(header)) return `property "${name}": x-mcp-header is not a valid header name`;
    const type = (property as { type?: unknown }).type;
    if (typeof type !== "string" || !MIRRORABLE_TYPES.has(type)) return `property "${name}": x-mcp-header on a ${String(type)} value`;
    const key = header.toLowerCase();
    if (seen.has(key)) return `x-mcp-header "${header}" is declared twice`;
    seen.add(key);
  }
  return undefined;
}

const BASE64_PREFIX = "=?base64?";
const BASE64_SUFFIX = "?=";
const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A primitive argument as its header text (strings as they are, numbers in decimal, booleans lowercase); undefined when it has none. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

/** An `Mcp-Param-*` value as text: a `=?base64?…?=` value decoded (undefined when not canonical Base64 of UTF-8), any other as it is. */
function decodedHeader(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const encoded = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!BASE64_CANONICAL.test(encoded)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(encoded, "base64"));
  } catch {
    return undefined;
  }
}

/**
 * The server's side of SEP-2243 for one `tools/call` (what a server must refuse with `-32020`,
 * HeaderMismatch): for each `x-mcp-header` property of the tool's input schema whose argument is
 * present and not null, the `Mcp-Param-<Name>` header must be there, decode (a `=?base64?…?=` value
 * must be canonical Base64 of UTF-8) and equal the argument (numbers compared as numbers). Why the
 * request is refused, or undefined when it may go ahead.
 */
export function paramHeaderMismatch(inputSchema: unknown, args: unknown, headers: Pick<Headers, "get">): string | undefined {
  if (invalidParamHeaders(inputSchema) !== undefined) return undefined;
  const properties =
    (inputSchema as { properties?: Record<string, { "x-mcp-header"?: string; type?: string }> } | undefined)?.properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    const header = property?.["x-mcp-header"];
    if (typeof header !== "string") continue;
    const value = (args as Record<string, unknown> | undefined)?.[name];
    const text = value === null || value === undefined ? undefined : headerText(value);
    if (text === undefined) continue;
    const key = `Mcp-Param-${header}`;
    const raw = headers.get(key);
    if (raw === null) return `the body carries "${name}" but the ${key} header is absent`;
    const decoded = decodedHeader(raw);
    if (decoded === undefined) return `the ${key} header carries an invalid Base64 value`;
    const numeric = (property.type === "integer" || property.type === "number") && typeof value === "number" && DECIMAL.test(decoded);
    if (numeric ? Number(decoded) !== value : decoded !== text) return `the ${key} header does not match the body's "${name}"`;
  }
  return undefined;
}
