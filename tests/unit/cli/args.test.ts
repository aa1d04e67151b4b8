import { describe, expect, it } from "vitest";
import { UsageError, jsonArguments, parseArgv, parseKeyValues, splitTarget } from "@/lib/cli/args";

describe("CLI arguments", () => {
  it("separates positionals from --config/--json flags, in either spelling", () => {
    expect(parseArgv(["call", "a.b", "--config", "x.yaml", "k=v", '--json={"a":1}'])).toEqual({
      positional: ["call", "a.b", "k=v"],
      flags: { config: "x.yaml", json: '{"a":1}' },
    });
    expect(() => parseArgv(["list", "--config"])).toThrow(UsageError);
  });

  it("splits server.tool at the first dot (tool names may contain dots)", () => {
    expect(splitTarget("fs.read.v2")).toEqual({ server: "fs", tool: "read.v2" });
    for (const bad of [undefined, "nodot", ".tool", "server."]) expect(() => splitTarget(bad)).toThrow(UsageError);
  });

  it("coerces key=value by the schema: strings stay strings, the rest is JSON when it parses", () => {
    const schema = { properties: { message: { type: "string" }, count: { type: "number" } } };
    expect(parseKeyValues(["message=42", "count=42", "flag=true", 'obj={"x":1}', "text=hello=world"], schema)).toEqual({
      message: "42",
      count: 42,
      flag: true,
      obj: { x: 1 },
      text: "hello=world",
    });
    expect(() => parseKeyValues(["novalue"])).toThrow(/key=value/);
  });

  it("accepts only a JSON object for --json", () => {
    expect(jsonArguments('{"a":1}')).toEqual({ a: 1 });
    expect(jsonArguments(undefined)).toEqual({});
    expect(() => jsonArguments("[1]")).toThrow(/object/);
    expect(() => jsonArguments("{oops")).toThrow(/not valid JSON/);
  });
});
