import { expect, test } from "@playwright/test";
import { OAuthFixtureProcess } from "./pages/oauth";
import { addMember, createTeam, SETUP, signedUp, type Signed } from "./pages/workspaces";

// The real AS (oidc-provider) + MCP server whose `whoami` names the bearer token's subject.
const fixture = new OAuthFixtureProcess(600);
const people: Signed[] = [];

test.describe
  .serial("Connect for everyone", () => {
    test.beforeAll(async () => {
      await fixture.start();
    });
    test.afterAll(async () => {
      for (const person of people) await person.close();
      fixture.stop();
    });

    test("a shared server waits for an owner's Connect for everyone, then every member's calls carry that account", async ({ browser }) => {
      const owner = await signedUp(browser, "share-owner");
      const mate = await signedUp(browser, "share-mate");
      people.push(owner, mate);
      const team = await createTeam(owner, "Sharing");
      await addMember(owner, team.id, mate, "member");
      const scope = { headers: { "x-workspace-id": team.id }, ...SETUP };
      const created = await owner.api.post("/api/servers", {
        ...scope,
        data: { name: "mail", config: { url: fixture.mcpUrl, auth: "oauth", credentials: "shared" } },
      });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const whoami = async () => {
        const response = await mate.api.post(`/api/servers/${id}/tools/call`, { ...scope, data: { name: "whoami", arguments: {} } });
        return { status: response.status(), body: (await response.json()) as { content?: Array<{ text?: string }>; code?: string } };
      };

      // Nobody connected it for everyone: the member waits, with no button of their own.
      await mate.page.goto(`/w/${team.slug}/servers`);
      await expect(mate.page.getByTestId("shared-mail")).toContainText("waiting");
      await expect(mate.page.getByRole("button", { name: "Connect for everyone" })).toHaveCount(0);
      expect((await whoami()).body.content?.[0]?.text).not.toBe("team-account");

      // The owner connects their account for everyone at the AS.
      await owner.page.goto(`/w/${team.slug}/servers`);
      await owner.page.getByTestId("shared-mail").getByRole("button", { name: "Connect for everyone" }).click();
      await owner.page.getByPlaceholder("Enter any login").fill("team-account");
      await owner.page.getByPlaceholder("and password").fill("any password");
      await owner.page.getByRole("button", { name: "Sign-in" }).click();
      await owner.page.getByRole("button", { name: "Continue" }).click();
      await expect(owner.page).toHaveURL(/\/servers$/);

      await expect.poll(async () => (await whoami()).body.content?.[0]?.text).toBe("team-account");
      await mate.page.reload();
      await expect(mate.page.getByTestId("shared-mail")).toContainText(`${owner.account.name}'s account`);
    });
  });
