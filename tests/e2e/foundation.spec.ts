import { expect, test } from "@playwright/test";
import { signInStdioAdmin } from "./helpers/stdio-admin";
import { ADMIN, AuthPages, ServersPage, newAccount } from "./pages/app";

// One account registered first in this file's run is the instance admin (fresh data dir per run).
const admin = ADMIN;
const member = newAccount("member");
let adminServerId = "";

test.describe
  .serial("foundation", () => {
    test("register, add an HTTP and a stdio server, see field errors, sign out", async ({ page }) => {
      const auth = new AuthPages(page);
      await auth.register(admin);
      await expect(page.getByTestId("current-user")).toContainText("admin");

      const servers = new ServersPage(page);
      await servers.open();
      await servers.addHttp("remote-api", "https://mcp.example.com/mcp", "Authorization: Bearer sk-e2e-secret-value-123");
      await expect(page.getByTestId("server-remote-api")).toContainText("https://mcp.example.com/mcp");
      await expect(page.locator("body")).not.toContainText("sk-e2e-secret-value-123");

      // A stdio server needs an administrator with a second factor: the suite's stdio administrator
      // adds it in their workspace (ADMIN keeps none), then ADMIN carries on.
      await auth.signOut();
      await signInStdioAdmin(page);
      await servers.open();
      await servers.addStdio("memory", "npx", ["-y", "@modelcontextprotocol/server-memory"]);
      await expect(page.getByTestId("server-memory")).toContainText("npx -y @modelcontextprotocol/server-memory");
      await auth.signOut();
      await auth.signIn(admin);
      await servers.open();

      // A bad config: the error appears at the field it concerns.
      await servers.startAdding("broken");
      await page.getByLabel("URL").fill("ftp://nope");
      // Advanced settings are folded by topic: the timeouts open on a click.
      await page.getByTestId("server-form").getByText("Timeouts and protocol", { exact: true }).click();
      await page.getByLabel(/^Tool call timeout/).fill("soon");
      await page.getByRole("button", { name: "Add server" }).last().click();
      await expect(page.getByTestId("field-error-timeout")).toContainText("expected number");
      await page.getByLabel(/^Tool call timeout/).fill("30");
      await page.getByRole("button", { name: "Add server" }).last().click();
      await expect(page.getByTestId("field-error-url")).toContainText("http");
      await expect(page.getByTestId("field-error-timeout")).toHaveCount(0);
      await page.getByRole("button", { name: "Cancel" }).click();

      // Editing keeps the masked secret: the stored value is not shown and not lost.
      await page.getByTestId("server-remote-api").getByRole("button", { name: "Edit" }).click();
      await expect(page.getByLabel(/^Headers/)).toHaveValue("Authorization: ********");
      // Another host: a stored secret never follows the server there; it must be entered again.
      await page.getByLabel("URL").fill("https://mcp2.example.com/mcp");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByTestId("field-error-headers")).toContainText("enter the API key again for the new address");
      // Another path on the same origin keeps it.
      await page.getByLabel("URL").fill("https://mcp.example.com/v2/mcp");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByTestId("server-remote-api")).toContainText("https://mcp.example.com/v2/mcp");

      const listed = await (await page.request.get("/api/servers")).json();
      adminServerId = listed.servers.find((s: { name: string }) => s.name === "remote-api").id;
      expect(JSON.stringify(listed)).not.toContain("sk-e2e-secret-value-123");

      await auth.signOut();
      await page.goto("/servers");
      await expect(page).toHaveURL(/\/signin/);
    });

    test("a second user sees none of the first user's servers and cannot add stdio", async ({ page }) => {
      const auth = new AuthPages(page);
      await auth.register(member);
      const servers = new ServersPage(page);
      await servers.open();
      await expect(page.getByTestId("no-servers")).toBeVisible();
      await expect(page.getByTestId("server-remote-api")).toHaveCount(0);
      await page.getByRole("button", { name: "Add server" }).click();
      await expect(page.getByLabel("Local (stdio)")).toBeDisabled();

      const list = await page.request.get("/api/servers");
      expect((await list.json()).servers).toEqual([]);
      for (const method of ["get", "patch", "delete"] as const) {
        const response = await page.request[method](`/api/servers/${adminServerId}`, method === "patch" ? { data: { name: "mine" } } : {});
        expect(response.status(), method).toBe(404);
      }
      const stdio = await page.request.post("/api/servers", { data: { name: "sneaky", config: { command: "sh" } } });
      expect(stdio.status()).toBe(403);
    });

    test("the API answers 401 without a session and the admin can sign back in", async ({ page, request }) => {
      const anonymous = await request.get("/api/servers");
      expect(anonymous.status()).toBe(401);
      expect((await anonymous.json()).code).toBe("auth.unauthorized");
      const forged = await request.get("/api/servers", {
        headers: { cookie: "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..forged.token.value" },
      });
      expect(forged.status()).toBe(401);
      const health = await request.get("/api/health");
      expect(await health.json()).toMatchObject({ ok: true, database: "ok" });

      const auth = new AuthPages(page);
      await auth.signIn(admin);
      const list = await page.request.get("/api/servers");
      const names = (await list.json()).servers.map((s: { name: string }) => s.name);
      // "memory" lives in the stdio administrator's workspace (the first test), not ADMIN's.
      expect(names).toEqual(["remote-api"]);
    });
  });
