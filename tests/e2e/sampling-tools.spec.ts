import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, waitForPort } from "../helpers/ports";
import { expect, test } from "./helpers/fixtures";
import { AuthPages, ServersPage, newAccount } from "./pages/app";

/**
 * Sampling with tools in the review dialog (docs/protocol.md#sampling-with-tools): the user sees the
 * tools the server offers the model, then the call the model makes, which goes back to the server.
 */
test("the sampling review shows the server's offered tools and the model's tool call", async ({ page }) => {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(process.cwd(), "tests/fixtures/mcp/sampling-tools-server.mjs"), "http"], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  try {
    await waitForPort(port);
    await new AuthPages(page).register(newAccount("sampling-tools"));
    const servers = new ServersPage(page);
    await servers.open();
    await servers.addHttp("weather", `http://127.0.0.1:${port}/mcp`);
    await expect(page.getByTestId("server-weather").getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
    const { servers: list } = await (await page.request.get("/api/servers")).json();
    const id = list[0].id as string;
    const call = page.request.post(`/api/servers/${id}/tools/call`, {
      data: { name: "forecast", arguments: { city: "Lima" } },
      timeout: 60_000,
    });

    const dialog = page.getByTestId("sampling-dialog");
    await expect(dialog.getByTestId("sampling-tools")).toContainText("get_weather — Current weather for a city");
    await dialog.getByRole("button", { name: "Ask the model" }).click();
    await expect(dialog.getByTestId("sampling-tool-calls")).toContainText('get_weather({"city":"Lima"})');
    await dialog.getByRole("button", { name: "Send answer" }).click();
    // Round 2: the server ran its tool and asks again with the result; the model answers in text.
    await expect(dialog).toContainText("weather wants to ask the model");
    await dialog.getByRole("button", { name: "Ask the model" }).click();
    await expect(dialog.getByLabel("The model's answer")).toHaveValue("Tool results: sunny in Lima");
    await expect(dialog.getByTestId("sampling-tool-calls")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Send answer" }).click();
    await expect(dialog).toBeHidden();
    expect(JSON.stringify(await (await call).json())).toContain("final: Tool results: sunny in Lima");

    const status = await (await page.request.get(`/api/servers/${id}/status`)).json();
    expect(status.sampling).toMatchObject({ requests: 2, toolUses: 1 });
  } finally {
    child.kill("SIGTERM");
  }
});
