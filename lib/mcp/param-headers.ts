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
