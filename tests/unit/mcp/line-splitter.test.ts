/** The stdio line splitter: lines across chunks, the size cap, and reading ids of discarded lines. */
import { describe, expect, it } from "vitest";
import { LineSplitter, type OversizedLine } from "@/lib/mcp/line-splitter";
import { guessResponseId } from "@/lib/mcp/limits/response-id";

function split(chunks: string[], max = 20) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const splitter = new LineSplitter(
    max,
    (l) => lines.push(l),
    (o) => oversized.push(o),
  );
  for (const chunk of chunks) splitter.push(Buffer.from(chunk));
  return { lines, oversized };
}

describe("LineSplitter", () => {
  it("joins lines split across chunks and skips blank lines and CRs", () => {
    expect(split(["ab", "c\nde\r\n\n", "f\n"]).lines).toEqual(["abc", "de", "f"]);
  });

  it("discards an over-long line once, keeps head and tail, and carries on", () => {
    const { lines, oversized } = split(["ok\n", "x".repeat(15), "y".repeat(15), `${"z".repeat(10)}\nnext\n`]);
    expect(lines).toEqual(["ok", "next"]);
    expect(oversized).toHaveLength(1);
    expect(oversized[0].bytes).toBe(40);
    expect(oversized[0].head.startsWith("xxx")).toBe(true);
    expect(oversized[0].tail.endsWith("zzz")).toBe(true);
  });

  it("a line exactly at the cap is fine", () => {
    expect(split([`${"a".repeat(20)}\n`]).lines).toEqual(["a".repeat(20)]);
  });
});

describe("guessResponseId", () => {
  it.each([
    ["id at the head", '{"jsonrpc":"2.0","id":7,"result":{', "", 7],
    ["string id at the head", '{"id":"r-1","jsonrpc":"2.0"', "", "r-1"],
    ["id at the tail (SDK order)", '{"result":{"content":[', '..."}]},"jsonrpc":"2.0","id":12}', 12],
    ["nested id at the tail is not taken", '{"result":{', ',"x":{"id":3}}}', undefined],
    ["no id", '{"result":', "]}", undefined],
    ["a request from the server, id first", '{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage"', "", undefined],
    ["a request from the server, id last", '{"method":"sampling/createMessage","params":{', ',"jsonrpc":"2.0","id":0}', undefined],
  ])("%s", (_name, head, tail, expected) => expect(guessResponseId({ head, tail })).toBe(expected));
});
