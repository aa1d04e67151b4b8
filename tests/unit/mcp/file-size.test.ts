/**
 * The engine keeps its seams: no file in lib/mcp over 400 lines. A class that grows past it is
 * split along a seam (docs/architecture.md#the-engine), not squeezed under the bound.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ENGINE = path.resolve(__dirname, "../../../lib/mcp");
const MAX_LINES = 400;

/** Every .ts file under `dir`, relative to lib/mcp. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith(".ts") ? [path.relative(ENGINE, file)] : [];
  });
}

describe("engine file size", () => {
  const counts = sources(ENGINE).map((file) => ({ file, lines: fs.readFileSync(path.join(ENGINE, file), "utf8").split("\n").length - 1 }));

  it("finds the engine's files, nested folders included", () => {
    expect(counts.some((c) => c.file === "pool.ts")).toBe(true);
    expect(counts.some((c) => c.file.includes(path.sep))).toBe(true);
  });

  it(`has no file in lib/mcp over ${MAX_LINES} lines`, () => {
    const over = counts.filter((c) => c.lines > MAX_LINES).map((c) => `${c.file}: ${c.lines} lines`);
    expect(over).toEqual([]);
  });
});
