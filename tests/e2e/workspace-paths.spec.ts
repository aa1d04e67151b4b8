/**
 * The workspace is explicit (issue 28): a workspace page builds every API URL with its workspace
 * (`/api/w/<slug>/…`), so what is not a fetch — a download link, an image — acts on the workspace
 * of the page it is on, two tabs in two workspaces keep to their own, and the direct lane serves
 * the tool call at its workspace-scoped path with the same membership check.
 */
import { type RunningServer, startRecordsHttp } from "./helpers/everything-server";
import { expect, test } from "./helpers/fixtures";
import { ServersPage, waitForHydration } from "./pages/app";
import { createTeam, SETUP, type Signed, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 120_000 });

let records: RunningServer;
test.beforeAll(async () => {
  records = await startRecordsHttp();
});
test.afterAll(async () => {
  await records.stop();
});

/** Add a server to workspace `slug` through its workspace-scoped path; returns its id. */
async function addServer(who: Signed, slug: string, name: string, config: Record<string, unknown>): Promise<string> {
  const response = await who.api.post(`/api/w/${slug}/servers`, { data: { name, config }, ...SETUP });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test("on a team's Servers page, Export downloads the team's servers and a team server's icon loads", async ({ browser }) => {
  const owner = await signedUp(browser, "paths-owner");
  const team = await createTeam(owner, "Paths Export");
  await addServer(owner, "personal", "only-personal", { url: records.url, enabled: false });
  const id = await addServer(owner, team.slug, "team-records", { url: records.url });

  await owner.page.goto(`/w/${team.slug}/servers`);
  await waitForHydration(owner.page);
  const exported = await new ServersPage(owner.page).exportServers("yaml");
  expect(exported).toContain("team-records");
  expect(exported).not.toContain("only-personal");

  // The inspector's icon is an <img> from the app's icon route: an image, not a fetch.
  const iconAnswer = owner.page.waitForResponse((r) => r.url().includes(`/servers/${id}/icon?i=0`));
  await owner.page.goto(`/w/${team.slug}/servers/${id}`);
  const icon = owner.page.getByTestId("server-icon");
  await expect(icon).toBeVisible({ timeout: 30_000 });
  const answer = await iconAnswer;
  expect(answer.status()).toBe(200);
  expect(new URL(answer.url()).pathname).toBe(`/api/w/${team.slug}/servers/${id}/icon`);
  await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16);
  await owner.close();
});

test("two tabs in two workspaces each export their own servers", async ({ browser }) => {
  const owner = await signedUp(browser, "paths-tabs");
  const team = await createTeam(owner, "Paths Tabs");
  await addServer(owner, "personal", "tab-personal", { url: records.url, enabled: false });
  await addServer(owner, team.slug, "tab-team", { url: records.url, enabled: false });

  const personalTab = owner.page;
  await personalTab.goto("/w/personal/servers");
  // The team tab opens last: anything the tabs shared would now point at the team.
  const teamTab = await personalTab.context().newPage();
  await teamTab.goto(`/w/${team.slug}/servers`);
  await Promise.all([waitForHydration(personalTab), waitForHydration(teamTab)]);

  const fromPersonal = await new ServersPage(personalTab).exportServers("json");
  const fromTeam = await new ServersPage(teamTab).exportServers("json");
  expect(fromPersonal).toContain("tab-personal");
  expect(fromPersonal).not.toContain("tab-team");
  expect(fromTeam).toContain("tab-team");
  expect(fromTeam).not.toContain("tab-personal");
  await owner.close();
});

test("the direct lane serves /api/w/<slug>/servers/:id/tools/call, and only to the workspace's members", async ({
  browser,
  everything,
}) => {
  const owner = await signedUp(browser, "paths-lane");
  const outsider = await signedUp(browser, "paths-outsider");
  const team = await createTeam(owner, "Paths Lane");
  const id = await addServer(owner, team.slug, "lane-everything", { url: everything.url });
  const call = (who: Signed, slug: string, headers: Record<string, string> = {}) =>
    who.api.post(`/api/w/${slug}/servers/${id}/tools/call`, {
      data: { name: "echo", arguments: { message: "lane hello" } },
      headers,
      ...SETUP,
    });

  const served = await call(owner, team.slug);
  expect(served.status()).toBe(200);
  expect(served.headers()["server-timing"]).toContain('lane;desc="direct"');
  expect(JSON.stringify(await served.json())).toContain("lane hello");

  // Not a member: the team's existence is not revealed, on the lane as on Next.
  const refused = await call(outsider, team.slug, { "x-workspace-id": team.id });
  expect(refused.status()).toBe(404);
  expect(refused.headers()["server-timing"]).toContain('lane;desc="direct"');
  expect((await refused.json()).code).toBe("workspace.not_found");

  // The path wins over the header: the personal workspace has no such server.
  const personal = await call(owner, "personal", { "x-workspace-id": team.id });
  expect(personal.status()).toBe(404);
  expect((await personal.json()).code).toBe("server.not_found");
  await outsider.close();
  await owner.close();
});
