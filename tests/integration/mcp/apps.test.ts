/**
 * MCP Apps in the engine: the client declares the `io.modelcontextprotocol/ui` extension to a real
 * server, and registered tools keep their `ui://` link (and visibility); other URIs are ignored.
 * The official vanillajs example server links its app the same way.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildMcpTools } from "@/lib/agent/mcp-tools";
import { McpPool } from "@/lib/mcp";
import { fixture, def, ROOT } from "./helpers";

const pool = new McpPool();
afterAll(() => pool.closeAll());

describe("MCP Apps extension", () => {
  it("declares the extension with the app MIME type in initialize", async () => {
    const probe = fixture("probe", "apps-probe-server.mjs");
    const outcome = await pool.session("u1", probe).callTool("capabilities", {});
    const declared = JSON.parse((outcome.content.content[0] as { text: string }).text);
    expect(declared.extensions).toEqual({ "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
  });

  it("keeps each tool's ui:// link and visibility, and drops links that are not ui://", async () => {
    const probe = fixture("probe2", "apps-probe-server.mjs");
    const tools = await pool.toolset("u1", [probe]);
    const byRaw = new Map(tools.map((t) => [t.rawName, t]));
    expect(byRaw.get("show")?.ui).toEqual({ resourceUri: "ui://probe/app.html" });
    expect(byRaw.get("model_only")?.ui).toEqual({ resourceUri: "ui://probe/app.html", visibility: ["model"] });
    expect(byRaw.get("bad_link")?.ui).toBeUndefined();
    expect(byRaw.get("capabilities")?.ui).toBeUndefined();
    // The model is never offered a tool the app declared for itself only.
    const offered = Object.keys(buildMcpTools({ pool, userId: "u1", servers: [probe], registered: tools }));
    expect(offered).toContain(byRaw.get("show")!.name);
    expect(offered).toContain(byRaw.get("model_only")!.name);
    expect(offered).not.toContain(byRaw.get("app_only")!.name);
  });

  it("sees the official vanillajs example's app link and reads its HTML", async () => {
    const entry = path.join(ROOT, "node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js");
    const vanilla = def("vanilla", { command: process.execPath, args: [entry, "--stdio"] });
    const tools = await pool.toolset("u1", [vanilla]);
    const tool = tools.find((t) => t.rawName === "get-time");
    expect(tool?.ui?.resourceUri).toBe("ui://get-time/mcp-app.html");
    const read = await pool.session("u1", vanilla).readResource(tool!.ui!.resourceUri);
    expect(read.contents[0].mimeType).toBe("text/html;profile=mcp-app");
    expect((read.contents[0] as { text: string }).text).toContain('id="get-time-btn"');
  });
});
