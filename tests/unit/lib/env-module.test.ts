import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { maxBodyBytes } from "@/lib/http";
import { sandboxMode } from "@/lib/env";

// `process.env` is read in one module (lib/env.ts) for everything the app runs: lib/, app/, db/ and
// the root modules Next loads. A test rather than a boundary rule: dependency-cruiser sees imports,
// and `process` is a global. The scripts (scripts/, bin/) are programs of their own.
const ROOTS = ["lib", "app", "db", "proxy.ts"];
const ALLOWED = "lib/env.ts";

function sources(entry: string, found: string[] = []): string[] {
  const stat = fs.statSync(entry);
  if (stat.isFile()) {
    if (/\.(ts|tsx|mts|mjs|js)$/.test(entry)) found.push(entry.split(path.sep).join("/"));
    return found;
  }
  for (const name of fs.readdirSync(entry)) sources(path.join(entry, name), found);
  return found;
}

/** The file without its comments (a comment may name `process.env` to say why it is not used). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[\s;{}(),])\/\/.*$/gm, "$1");

describe("process.env is read in lib/env.ts only", () => {
  it("no other module of lib/, app/, db/ or proxy.ts mentions it", () => {
    const offenders = ROOTS.flatMap((root) => sources(root))
      .filter((file) => file !== ALLOWED)
      .filter((file) => /\bprocess\s*\.\s*env\b|\bprocess\s*\[/.test(withoutComments(fs.readFileSync(file, "utf8"))));
    expect(offenders).toEqual([]);
  });

  it("finds a read when there is one (the scan itself works)", () => {
    expect(/\bprocess\s*\.\s*env\b/.test(withoutComments("const a = process.env.X; // process.env"))).toBe(true);
    expect(/\bprocess\s*\.\s*env\b/.test(withoutComments("// process.env only in a comment\nconst a = 1;"))).toBe(false);
  });
});

describe("the settings are read when asked, not at import", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env.SWITCHBOARD_MAX_BODY_BYTES = saved.SWITCHBOARD_MAX_BODY_BYTES;
    process.env.SWITCHBOARD_SANDBOX = saved.SWITCHBOARD_SANDBOX;
    if (saved.SWITCHBOARD_MAX_BODY_BYTES === undefined) delete process.env.SWITCHBOARD_MAX_BODY_BYTES;
    if (saved.SWITCHBOARD_SANDBOX === undefined) delete process.env.SWITCHBOARD_SANDBOX;
  });

  it("a variable changed after import is what the next call sees", () => {
    process.env.SWITCHBOARD_MAX_BODY_BYTES = "2048";
    expect(maxBodyBytes()).toBe(2048);
    delete process.env.SWITCHBOARD_MAX_BODY_BYTES;
    expect(maxBodyBytes()).toBe(1_000_000);
    process.env.SWITCHBOARD_SANDBOX = "off";
    expect(sandboxMode()).toBe("off");
    process.env.SWITCHBOARD_SANDBOX = "anything else";
    expect(sandboxMode()).toBe("required");
  });
});
