import { expect, test } from "./helpers/fixtures";
import { AuthPages, ServersPage, newAccount } from "./pages/app";

test("a server's elicitation request is answered in the browser, defaults pre-filled", async ({ page, everything }) => {
  await new AuthPages(page).register(newAccount("elicit"));
  const servers = new ServersPage(page);
  await servers.open();
  await servers.addHttp("everything", everything.url);
  await expect(page.getByTestId("server-everything").getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
  const { servers: list } = await (await page.request.get("/api/servers")).json();

  // The tool call waits on the server until the user answers the dialog.
  const call = page.request.post(`/api/servers/${list[0].id}/tools/call`, {
    data: { name: "trigger-elicitation-request", arguments: {} },
    timeout: 60_000,
  });

  const dialog = page.getByTestId("elicitation-dialog");
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText("everything asks");
  await expect(dialog.getByLabel("String with default")).toHaveValue("It was a dark and stormy night.");
  await dialog.locator('input[name="name"]').fill("Ada Lovelace");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog).toBeHidden();

  const result = await (await call).json();
  const text = JSON.stringify(result);
  expect(text).toContain("Ada Lovelace");
  expect(text).toContain("It was a dark and stormy night.");
});
