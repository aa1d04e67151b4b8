/** SEP-2243: which x-mcp-header declarations make a tool unusable (and so excluded). */
import { describe, expect, it } from "vitest";
import { invalidParamHeaders, paramHeaderMismatch } from "@/lib/mcp/param-headers";

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

describe("the server's check of Mcp-Param headers (what the gateway refuses with -32020)", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      level: { type: "integer", "x-mcp-header": "Level" },
      note: { type: "string" },
    },
  };
  const headers = (entries: Record<string, string>) => new Headers(entries);
  const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

  it("accepts headers equal to the arguments: literal, Base64 of UTF-8, numbers as numbers", () => {
    expect(
      paramHeaderMismatch(schema, { region: "us-east1", level: 3 }, headers({ "Mcp-Param-Region": "us-east1", "Mcp-Param-Level": "3" })),
    ).toBeUndefined();
    expect(paramHeaderMismatch(schema, { region: "zürich\nline" }, headers({ "Mcp-Param-Region": b64("zürich\nline") }))).toBeUndefined();
    expect(paramHeaderMismatch(schema, { level: 3 }, headers({ "Mcp-Param-Level": "3.0" }))).toBeUndefined();
    // An argument left out or null needs no header; a property without x-mcp-header none at all.
    expect(paramHeaderMismatch(schema, { region: null, note: "x" }, headers({}))).toBeUndefined();
  });

  it("refuses a missing header, a bad Base64 value and a disagreeing one", () => {
    expect(paramHeaderMismatch(schema, { region: "us-east1" }, headers({}))).toContain("Mcp-Param-Region header is absent");
    expect(paramHeaderMismatch(schema, { region: "us" }, headers({ "Mcp-Param-Region": "=?base64?dXM?=" }))).toContain("invalid Base64");
    expect(paramHeaderMismatch(schema, { region: "us" }, headers({ "Mcp-Param-Region": "=?base64?#$%?=" }))).toContain("invalid Base64");
    expect(paramHeaderMismatch(schema, { region: "us-east1" }, headers({ "Mcp-Param-Region": "eu-west1" }))).toContain("does not match");
    expect(paramHeaderMismatch(schema, { level: 3 }, headers({ "Mcp-Param-Level": "4" }))).toContain("does not match");
  });

  it("checks nothing for a tool without declarations, or with invalid ones (such a tool is not listed)", () => {
    expect(paramHeaderMismatch(undefined, { region: "x" }, headers({}))).toBeUndefined();
    const invalid = { properties: { a: { type: "object", "x-mcp-header": "A" } } };
    expect(paramHeaderMismatch(invalid, { a: "x" }, headers({}))).toBeUndefined();
  });
});
