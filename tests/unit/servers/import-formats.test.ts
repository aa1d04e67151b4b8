/** Importing other clients' server configs (lib/servers/import-formats.ts), and export → import round trips. */
import { describe, expect, it } from "vitest";
import { exportServers } from "@/lib/servers/export-format";
import { ImportError, parseImport } from "@/lib/servers/import-formats";

const claude = JSON.stringify({
  mcpServers: {
    files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { TOKEN: "s3cret" } },
    remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abc" } },
  },
});

describe("parseImport: the three formats", () => {
  it("reads Claude Desktop / Cursor mcpServers: stdio needs consent, http does not", () => {
    const preview = parseImport(claude);
    expect(preview.format).toBe("mcpServers");
    expect(preview.servers.map((s) => [s.name, s.valid, s.needsConsent])).toEqual([
      ["files", true, true],
      ["remote", true, false],
    ]);
    expect(preview.servers[0].config).toMatchObject({ command: "npx", env: { TOKEN: "s3cret" } });
  });

  it("reads VS Code mcp.json: `type` chooses nothing of ours, input references are prompts filled on confirm", () => {
    const text = `{
      // VS Code allows comments
      "inputs": [{ "type": "promptString", "id": "api-key", "description": "API key", "password": true }],
      "servers": {
        "github": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer \${input:api-key}" } },
        "local": { "type": "stdio", "command": "node", "args": ["server.js"] }
      }
    }`;
    const preview = parseImport(text);
    expect(preview.format).toBe("vscode");
    const [github, local] = preview.servers;
    expect(github).toMatchObject({ valid: false, inputs: [{ id: "api-key", description: "API key" }] });
    expect(github.error).toContain('needs a value for input "api-key"');
    expect(local).toMatchObject({ valid: true, needsConsent: true, config: { command: "node", args: ["server.js"] } });
    const filled = parseImport(text, { "api-key": "k-123" }).servers[0];
    expect(filled).toMatchObject({ valid: true, config: { headers: { Authorization: "Bearer k-123" } } });
  });

  it("reads the command line's YAML mcp_servers with our own keys", () => {
    const preview = parseImport("mcp_servers:\n  docs:\n    url: https://docs.example.com/mcp\n    tools:\n      include: []\n");
    expect(preview.format).toBe("mcp_servers");
    expect(preview.servers[0]).toMatchObject({ name: "docs", valid: true, config: { tools: { include: [] } } });
  });
});

describe("parseImport: bad inputs, each reported on its entry", () => {
  const cases: [string, string, RegExp][] = [
    ["both command and url (mcpServers)", JSON.stringify({ mcpServers: { x: { command: "a", url: "https://a.example" } } }), /command|url/],
    ["neither command nor url", JSON.stringify({ mcpServers: { x: { args: ["a"] } } }), /command|url/],
    ["unknown key (mcpServers)", JSON.stringify({ mcpServers: { x: { command: "a", autoApprove: [] } } }), /`autoApprove`: unknown key/],
    ["unknown type (VS Code)", JSON.stringify({ servers: { x: { type: "websocket", url: "wss://a" } } }), /`type`: "websocket"/],
    ["args not a list", JSON.stringify({ mcpServers: { x: { command: "a", args: "b c" } } }), /`args`/],
    ["env value not a string", JSON.stringify({ mcpServers: { x: { command: "a", env: { N: 1 } } } }), /`env\.N`/],
    ["entry not an object", JSON.stringify({ mcpServers: { x: "npx thing" } }), /must be an object/],
    ["bad name", JSON.stringify({ mcpServers: { "has space": { url: "https://a.example/mcp" } } }), /`name`/],
    ["unknown key (YAML)", "mcp_servers:\n  x:\n    url: https://a.example/mcp\n    colour: red\n", /`colour`/],
    ["both command and url (YAML)", "mcp_servers:\n  x:\n    url: https://a.example/mcp\n    command: node\n", /command|url/],
    [
      "bad sampling key (YAML)",
      "mcp_servers:\n  x:\n    url: https://a.example/mcp\n    sampling:\n      reveiw: false\n",
      /sampling\.reveiw/,
    ],
  ];
  it.each(cases)("%s", (_label, text, message) => {
    const [entry] = parseImport(text).servers;
    expect(entry.valid).toBe(false);
    expect(entry.error).toMatch(message);
  });

  it.each([
    ["not JSON or YAML", "{ mcpServers: [", /neither JSON nor YAML/],
    ["no known shape", JSON.stringify({ tools: {} }), /mcpServers/],
    ["a list", "[]", /mcpServers/],
  ])("refuses the whole text when %s", (_label, text, message) => {
    expect(() => parseImport(text)).toThrow(ImportError);
    expect(() => parseImport(text)).toThrow(message);
  });
});

describe("export → import", () => {
  const servers = [
    { name: "remote", config: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abc" }, tools: { include: [] } } },
    { name: "plain", config: { url: "https://plain.example.com/mcp", sampling: { review: false }, timeout: 30 } },
  ];
  it.each(["yaml", "json"] as const)("gives the same configs back (%s), secrets as placeholders to fill", (format) => {
    const text = exportServers(servers, format);
    expect(text).not.toContain("Bearer abc");
    const preview = parseImport(text);
    expect(preview.servers[1]).toMatchObject({ valid: true, config: servers[1].config });
    expect(preview.servers[0]).toMatchObject({ valid: false, inputs: [{ id: "remote.headers.Authorization" }] });
    const filled = parseImport(text, { "remote.headers.Authorization": "Bearer abc" });
    expect(filled.servers.map((s) => s.config)).toEqual(servers.map((s) => s.config));
  });
});
