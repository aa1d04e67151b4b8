/** SEP-2243: which x-mcp-header declarations make a tool unusable (and so excluded). */
import { describe, expect, it } from "vitest";
import { invalidParamHeaders } from "@/lib/mcp/param-headers";

const schema = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("invalidParamHeaders", () => {
  it("accepts tools without declarations and valid ones on string, integer and boolean properties", () => {
    expect(invalidParamHeaders(schema({ q: { type: "string" } }))).toBeUndefined();
    expect(
      invalidParamHeaders(
        schema({
          region: { type: "string", "x-mcp-header": "Region" },
          n: { type: "integer", "x-mcp-header": "Count" },
          b: { type: "boolean", "x-mcp-header": "Flag-1" },
        }),
      ),
    ).toBeUndefined();
  });

  it.each([
    ["empty name", { v: { type: "string", "x-mcp-header": "" } }],
    ["space", { v: { type: "string", "x-mcp-header": "My Region" } }],
    ["colon", { v: { type: "string", "x-mcp-header": "Region:Primary" } }],
    ["non-ASCII", { v: { type: "string", "x-mcp-header": "Région" } }],
    ["control character", { v: { type: "string", "x-mcp-header": "Region\t1" } }],
    ["object value", { v: { type: "object", "x-mcp-header": "Data" } }],
    ["array value", { v: { type: "array", "x-mcp-header": "Items" } }],
    ["number value", { v: { type: "number", "x-mcp-header": "Score" } }],
    ["duplicate ignoring case", { a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }],
  ])("refuses %s", (_why, properties) => {
    expect(invalidParamHeaders(schema(properties))).toBeTypeOf("string");
  });
});
