import { describe, expect, it } from "vitest";
import { argumentChanges, definitionText, lineDiff } from "@/lib/trust/diff";

describe("review diffs", () => {
  it("lists the arguments the user changed, added or removed", () => {
    expect(argumentChanges({ a: 1, b: "x", c: true }, { a: 1, b: "y", d: [1] })).toEqual([
      { key: "b", before: '"x"', after: '"y"' },
      { key: "c", before: "true", after: undefined },
      { key: "d", before: undefined, after: "[1]" },
    ]);
    expect(argumentChanges({ a: { x: 1 } }, { a: { x: 1 } })).toEqual([]);
  });

  it("diffs definitions line by line", () => {
    const diff = lineDiff("a\nb\nc", "a\nB\nc\nd");
    expect(diff).toEqual([
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "B" },
      { op: " ", text: "c" },
      { op: "+", text: "d" },
    ]);
  });

  it("shows the description first and the rest as stable JSON", () => {
    const text = definitionText({ name: "add", description: "Add.", inputSchema: { type: "object", properties: {} } });
    expect(text.split("\n")[0]).toBe("description: Add.");
    expect(text).toContain('"name": "add"');
    expect(definitionText(null)).toBe("");
  });
});
