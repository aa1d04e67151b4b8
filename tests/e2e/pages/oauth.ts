import { expect, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ServersPage } from "./app";

/** Counters the fixture keeps (GET <mcp>/__stats). */
export interface OAuthFixtureStats {
  refreshGrants: number;
  codeGrants: number;
  revocations: number;
  registrations: number;
  /** The `scope` of each authorization request the AS received. */
  authorizationScopes: string[];
  tokensSeen: string[];
}

/** The OAuth fixture (AS + MCP server) as a child process on free ports. */
export class OAuthFixtureProcess {
  private child?: ChildProcess;
  mcpUrl = "";
  issuer = "";

  /** `stepUpScope`: the fixture's admin_action tool needs this scope (403 insufficient_scope without it). */
  constructor(
    private readonly accessTtlSeconds: number,
    private readonly options: { stepUpScope?: string } = {},
  ) {}

  async start(): Promise<void> {
    const script = path.resolve(__dirname, "../../fixtures/oauth/server.mjs");
    const child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        OAUTH_FIXTURE_ACCESS_TTL: String(this.accessTtlSeconds),
        OAUTH_FIXTURE_STEP_UP_SCOPE: this.options.stepUpScope ?? "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stderr?.resume();
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (chunk) => {
        out += chunk;
        if (out.includes("\n")) resolve(out);
      });
      child.on("exit", (code) => reject(new Error(`oauth fixture exited (${code})`)));
    });
    const match = /AS (\S+), MCP (\S+)/.exec(line);
    if (!match) throw new Error(`oauth fixture: unexpected output ${line}`);
    [, this.issuer, this.mcpUrl] = match;
  }

  async stats(): Promise<OAuthFixtureStats> {
    const response = await fetch(new URL("/__stats", this.mcpUrl));
    return (await response.json()) as OAuthFixtureStats;
  }

  stop(): void {
    this.child?.kill("SIGTERM");
  }
}

/** Page object for OAuth-protected servers: add one, Connect through the fixture AS, call a tool. */
export class OAuthPages {
  constructor(private readonly page: Page) {}

  /** Add an `auth: oauth` HTTP server and wait until it asks for authorization. */
  async addOAuthServer(name: string, url: string) {
    const servers = new ServersPage(this.page);
    await servers.open();
    await servers.startAdding(name);
    await this.page.getByLabel("URL").fill(url);
    await this.page.getByLabel("Requires OAuth sign-in (auth: oauth)").check();
    await this.page.getByRole("button", { name: "Add server" }).last().click();
    await expect(this.state(name)).toHaveText("needs authorization");
  }

  /** The server's state badge. */
  state(name: string) {
    return this.page.getByTestId(`server-${name}`).getByTestId("server-state");
  }

  /** Press Connect, sign in and consent at the fixture AS as `login`, land back on Servers connected. */
  async connect(name: string, login: string) {
    await this.page.getByTestId(`server-${name}`).getByRole("button", { name: "Connect", exact: true }).click();
    // oidc-provider's development pages: any login name, any password, then consent.
    await this.page.getByPlaceholder("Enter any login").fill(login);
    await this.page.getByPlaceholder("and password").fill("any password");
    await this.page.getByRole("button", { name: "Sign-in" }).click();
    await this.page.getByRole("button", { name: "Continue" }).click();
    await expect(this.page).toHaveURL(/\/servers$/);
    await expect(this.state(name)).toHaveText("connected");
  }

  /** The id of the caller's server called `name`. */
  async serverId(name: string): Promise<string> {
    const response = await this.page.request.get("/api/servers");
    const body = (await response.json()) as { servers?: Array<{ id: string; name: string }> } | Array<{ id: string; name: string }>;
    const list = Array.isArray(body) ? body : (body.servers ?? []);
    const found = list.find((server) => server.name === name);
    if (!found) throw new Error(`no server ${name}`);
    return found.id;
  }

  /** Call a tool as the signed-in user; returns the first text content. */
  async callTool(name: string, tool: string, args: Record<string, unknown> = {}): Promise<string> {
    const id = await this.serverId(name);
    const response = await this.page.request.post(`/api/servers/${id}/tools/call`, { data: { name: tool, arguments: args } });
    expect(response.ok()).toBe(true);
    const body = (await response.json()) as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
    expect(body.isError ?? false).toBe(false);
    return body.content?.[0]?.text ?? "";
  }
}
