/** MCP Apps' pure parts: the tool link, the frame CSP from declared origins, safe links. */
import { describe, expect, it } from "vitest";
import { appFrameCsp, sanitizeAppCsp } from "@/lib/apps/app-csp";
import { toolUiOf } from "@/lib/mcp/apps";

describe("toolUiOf", () => {
  it.each([
    [{ _meta: { ui: { resourceUri: "ui://a/b.html" } } }, { resourceUri: "ui://a/b.html" }],
    [{ _meta: { "ui/resourceUri": "ui://old/flat.html" } }, { resourceUri: "ui://old/flat.html" }],
    [{ _meta: { ui: { resourceUri: "ui://a", visibility: ["app", "bogus"] } } }, { resourceUri: "ui://a", visibility: ["app"] }],
    [{ _meta: { ui: { resourceUri: "https://evil.example/app.html" } } }, undefined],
    [{ _meta: { ui: { resourceUri: 42 } } }, undefined],
    [{}, undefined],
  ])("%j → %j", (tool, expected) => {
    expect(toolUiOf(tool as { _meta?: Record<string, unknown> })).toEqual(expected);
  });
});

describe("app frame CSP", () => {
  it("allows no network without declared origins, and is a sandbox with scripts only", () => {
    const csp = appFrameCsp({}, "http://localhost:3000");
    expect(csp).toContain("sandbox allow-scripts;");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("frame-ancestors http://localhost:3000");
    expect(csp).not.toMatch(/allow-same-origin|unsafe-eval/);
  });

  it("keeps only well-formed declared origins (no wildcards alone, no injected directives, no paths)", () => {
    const declared = sanitizeAppCsp({
      connectDomains: [
        "https://api.example.com",
        "*",
        "https://x.example.com; script-src *",
        "javascript:alert(1)",
        "https://a.example/path",
      ],
      resourceDomains: ["https://*.cdn.example", "http://evil.example"],
      unknown: ["https://ignored.example"],
    });
    expect(declared).toEqual({ connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example"] });
    const csp = appFrameCsp(declared, "http://localhost:3000");
    expect(csp).toContain("connect-src https://api.example.com;");
    expect(csp).toContain("img-src data: blob: https://*.cdn.example");
  });

  it("treats malformed metadata as none declared", () => {
    expect(sanitizeAppCsp({ connectDomains: "https://a.example" })).toEqual({});
    expect(sanitizeAppCsp(null)).toEqual({});
  });
});
