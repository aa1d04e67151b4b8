import { expect, test } from "./helpers/fixtures";
import { AuthPages, ServersPage, newAccount } from "./pages/app";

test("a remote server shows live status and tools, and the engine API calls it", async ({ page, everything }) => {
  const auth = new AuthPages(page);
  await auth.register(newAccount("live"));
  const servers = new ServersPage(page);
  await servers.open();
  await servers.addHttp("everything", everything.url);

  const card = page.getByTestId("server-everything");
  await expect(card.getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
  await expect(card.getByTestId("server-counts")).toContainText(/\d+ tools/);
  await card.getByRole("button", { name: "Tools", exact: true }).click();
  await expect(card.getByTestId("server-tools")).toContainText("mcp_everything_echo");

  const { servers: list } = await (await page.request.get("/api/servers")).json();
  const id = list[0].id as string;

  const tools = await (await page.request.get(`/api/servers/${id}/tools`)).json();
  const echo = tools.tools.find((t: { rawName: string }) => t.rawName === "echo");
  expect(echo).toMatchObject({ name: "mcp_everything_echo", kind: "tool" });
  expect(echo.inputSchema.type).toBe("object");

  const call = await page.request.post(`/api/servers/${id}/tools/call`, { data: { name: "echo", arguments: { message: "hi there" } } });
  expect(call.status()).toBe(200);
  expect(call.headers()["server-timing"]).toMatch(/^mcp;dur=/);
  // Served on the direct lane (lib/lane/direct-lane.ts), with the proxy's headers and refusals.
  expect(call.headers()["server-timing"]).toContain('lane;desc="direct"');
  expect(call.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect((await call.json()).content[0].text).toContain("hi there");
  const crossSite = await page.request.post(`/api/servers/${id}/tools/call`, {
    data: { name: "echo", arguments: { message: "forged" } },
    headers: { origin: "http://localhost:1" },
  });
  expect(crossSite.status()).toBe(403);

  const missing = await page.request.post(`/api/servers/${id}/tools/call`, { data: { name: "no_such_tool", arguments: {} } });
  expect((await missing.json()).isError).toBe(true);

  const badBody = await page.request.post(`/api/servers/${id}/tools/call`, { data: { arguments: {} } });
  expect(badBody.status()).toBe(400);
  expect((await badBody.json()).field).toBe("name");

  const resources = await (await page.request.get(`/api/servers/${id}/resources`)).json();
  expect(resources.resources.length).toBeGreaterThan(0);
  const read = await page.request.post(`/api/servers/${id}/resources/read`, { data: { uri: resources.resources[0].uri } });
  expect((await read.json()).contents.length).toBeGreaterThan(0);

  const prompts = await (await page.request.get(`/api/servers/${id}/prompts`)).json();
  const simple = prompts.prompts.find((p: { arguments?: unknown[] }) => !p.arguments || p.arguments.length === 0);
  const prompt = await page.request.post(`/api/servers/${id}/prompts/get`, { data: { name: simple.name, arguments: {} } });
  expect((await prompt.json()).messages.length).toBeGreaterThan(0);

  const status = await (await page.request.get(`/api/servers/${id}/status`)).json();
  expect(status).toMatchObject({ state: "connected", transport: "streamable_http" });
  expect(status.metrics.calls).toBeGreaterThanOrEqual(2);

  const reconnect = await page.request.post(`/api/servers/${id}/reconnect`);
  expect((await reconnect.json()).state).toBe("connected");
  const reload = await page.request.post("/api/mcp/reload");
  expect((await reload.json()).servers[0].state).toBe("connected");

  // Another user cannot reach this server through any engine route.
  const other = await page.context().browser()!.newContext({ baseURL: page.url() });
  const otherPage = await other.newPage();
  await new AuthPages(otherPage).register(newAccount("outsider"));
  for (const [method, path] of [
    ["get", "status"],
    ["get", "tools"],
    ["post", "tools/call"],
    ["post", "reconnect"],
  ] as const) {
    const response = await otherPage.request[method](
      `/api/servers/${id}/${path}`,
      method === "post" ? { data: { name: "echo", arguments: {} } } : {},
    );
    expect(response.status(), path).toBe(404);
  }
  await other.close();
});

test("an unreachable server says so on the Servers page", async ({ page }) => {
  await new AuthPages(page).register(newAccount("down"));
  const servers = new ServersPage(page);
  await servers.open();
  await servers.addHttp("nothing-here", "http://127.0.0.1:9/mcp");
  const card = page.getByTestId("server-nothing-here");
  await expect(card.getByTestId("server-state")).toHaveText("failed", { timeout: 30_000 });
  await expect(card.getByTestId("server-error")).toBeVisible();
});
