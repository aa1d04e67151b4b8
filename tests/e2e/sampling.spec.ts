import { expect, test } from "./helpers/fixtures";
import { AuthPages, ServersPage, newAccount } from "./pages/app";

test("a server's sampling request is reviewed, edited, answered by the model and reviewed again", async ({ page, everything }) => {
  await new AuthPages(page).register(newAccount("sampling"));
  const servers = new ServersPage(page);
  await servers.open();
  await servers.addHttp("everything", everything.url);
  await expect(page.getByTestId("server-everything").getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
  const { servers: list } = await (await page.request.get("/api/servers")).json();
  const id = list[0].id as string;
  const trigger = () =>
    page.request.post(`/api/servers/${id}/tools/call`, {
      data: { name: "trigger-sampling-request", arguments: { prompt: "What is MCP?" } },
      timeout: 60_000,
    });

  const call = trigger();
  const dialog = page.getByTestId("sampling-dialog");
  await expect(dialog).toContainText("everything wants to ask the model");
  await expect(dialog.getByLabel("Message to the model")).toHaveValue(/What is MCP\?/);
  await dialog.getByLabel("Message to the model").fill("Edited question");
  await dialog.getByRole("button", { name: "Ask the model" }).click();

  // The scripted model answers "You said: <the user's text>", so the edit is visible in the answer.
  await expect(dialog).toContainText("Send this answer back to everything?");
  await expect(dialog.getByLabel("The model's answer")).toHaveValue("You said: Edited question");
  // Step 2 shows the request as sent (with the edit), not the server's original.
  await expect(dialog.getByTestId("sampling-message").last()).toContainText("Edited question");
  await expect(dialog.getByTestId("sampling-message").filter({ hasText: "What is MCP?" })).toHaveCount(0);
  await dialog.getByLabel("The model's answer").fill("You said: Edited question (checked)");
  await dialog.getByRole("button", { name: "Send answer" }).click();
  await expect(dialog).toBeHidden();
  expect(JSON.stringify(await (await call).json())).toContain("You said: Edited question (checked)");

  const denied = trigger();
  await dialog.getByRole("button", { name: "Deny" }).click();
  const result = await (await denied).json();
  expect(result.isError).toBe(true);
  expect(JSON.stringify(result)).toContain("declined");

  const status = await (await page.request.get(`/api/servers/${id}/status`)).json();
  expect(status.sampling).toMatchObject({ requests: 2, errors: 1 });
});
