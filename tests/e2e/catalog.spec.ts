/**
 * The server catalog in the browser (docs/catalog.md): the administrator adds a `/v0.1` registry
 * (the fixture, serving a remote entry for server-everything on loopback and the npm example),
 * imports both, restricts the remote one to a team; a member of the team sees both, someone
 * elsewhere only the open one; Add on the remote entry fills the generated form and the saved server
 * connects; the administrator adds the npm entry as a sandboxed stdio server with its launch line.
 * The admin catalog and the workspace catalog with its Add form open fit 1280 and 390 px, axe clean.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { signedInStdioAdmin } from "./helpers/stdio-admin";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, SETUP, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 240_000 });

const REGISTRY_PORT = Number(process.env.E2E_PORT ?? 4480) + 2;

/** The `/v0.1` registry fixture as a child process (Playwright loads specs as CommonJS, the fixture is a module). */
async function startRegistry(items: unknown[]): Promise<{ url: string; close(): Promise<void> }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "catalog-e2e-")), "items.json");
  fs.writeFileSync(file, JSON.stringify(items));
  const child = spawn(
    process.execPath,
    [path.join(process.cwd(), "tests/fixtures/registry/registry-server.mjs"), String(REGISTRY_PORT), file],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.on("exit", (code) => reject(new Error(`registry fixture exited ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url,
    close: () => {
      child.kill();
      return exited;
    },
  };
}

const example = (name: string) => JSON.parse(fs.readFileSync(path.join("tests/fixtures/registry/servers", `${name}.json`), "utf8"));

// `slug` null: the caller's personal workspace (a workspace API path without `/w/<slug>/`).
const catalogEntries = async (page: Page, slug: string | null) =>
  (
    (await (await page.request.get(slug ? `/api/w/${slug}/catalog` : "/api/catalog", SETUP)).json()) as {
      entries: { id: string; name: string }[];
    }
  ).entries;
/** At 1280 and 390 px: no sideways scroll and no serious axe violation; the page is left at 1280 px. */
async function fitsAndPasses(page: Page, label: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    expect(scrollWidth, `${label} at ${width} px: no sideways scroll`).toBeLessThanOrEqual(innerWidth);
    await expectNoSeriousA11yViolations(page, `${label} at ${width} px`);
  }
}

const catalogNames = async (page: Page, slug: string | null) => (await catalogEntries(page, slug)).map((e) => e.name).sort();

test("admin imports two registry entries and restricts one; members see what they may; Add makes servers that run", async ({
  browser,
  everything,
}) => {
  const port = new URL(everything.url).port;
  const remote = {
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name: "io.example.e2e/everything",
    title: "Everything",
    description: "The MCP reference server with every feature",
    version: "1.0.0",
    remotes: [
      {
        type: "streamable-http",
        url: "http://127.0.0.1:{port}/mcp",
        variables: { port: { description: "Port", isRequired: true, default: port } },
        headers: [
          {
            name: "Authorization",
            value: "Bearer {token}",
            isRequired: true,
            isSecret: true,
            variables: { token: { isRequired: true, isSecret: true } },
          },
          { name: "X-Region", choices: ["eu", "us"], default: "eu" },
        ],
      },
    ],
  };
  const npm = example("npm-github");
  let registry = await startRegistry([{ server: remote }, { server: npm }]);
  const admin = await signedInAdmin(browser);
  // Creating stdio servers needs an administrator with a second factor: the stdio administrator adds the npm entry.
  const boxer = await signedInStdioAdmin(browser);
  const mate = await signedUp(browser, "catalog-mate");
  const outsider = await signedUp(browser, "catalog-outsider");
  try {
    const teamName = `Catalog ${Date.now()}`;
    const team = await createTeam(admin, teamName);
    await addMember(admin, team.id, mate, "member");
    await addMember(admin, team.id, boxer, "admin");

    // The administrator adds the registry, browses it and imports both entries.
    const page = admin.page;
    await page.goto("/admin/catalog");
    await waitForHydration(page);
    await page.getByTestId("catalog-registry-url").fill(registry.url);
    await page.getByRole("button", { name: "Add registry" }).click();
    const row = page.getByTestId(`catalog-registry-${registry.url}`);
    await row.getByRole("button", { name: "Browse" }).click();
    await row.getByRole("button", { name: "Search" }).click();
    await row.getByLabel(`Choose ${remote.name}`).check();
    await row.getByLabel(`Choose ${npm.name}`).check();
    await row.getByRole("button", { name: "Import chosen (2)" }).click();
    await expect(row.getByTestId("catalog-registry-report")).toContainText("2 imported");

    // The remote entry is shown to the team only; the npm entry to every workspace.
    const remoteEntry = page.getByTestId(`catalog-entry-${remote.name}`);
    await remoteEntry.getByLabel(`Visibility of ${remote.name}`).selectOption("workspaces");
    await remoteEntry.getByLabel(`Show ${remote.name} in ${teamName}`).check();
    await remoteEntry.getByRole("button", { name: "Save" }).click();
    const npmEntry = page.getByTestId(`catalog-entry-${npm.name}`);
    await npmEntry.getByLabel(`Visibility of ${npm.name}`).selectOption("all");
    await npmEntry.getByRole("button", { name: "Save" }).click();
    await expect(npmEntry.getByLabel(`Visibility of ${npm.name}`)).toHaveValue("all");
    await expect(remoteEntry.getByLabel(`Visibility of ${remote.name}`)).toHaveValue("workspaces");
    await fitsAndPasses(page, "admin catalog");

    // Each member sees only what their workspace may.
    await expect.poll(() => catalogNames(mate.page, team.slug)).toEqual([npm.name, remote.name].sort());
    expect(await catalogNames(outsider.page, null)).toEqual([npm.name]);
    await mate.page.goto(`/w/${team.slug}/servers/catalog`);
    await expect(mate.page.getByTestId(`catalog-item-${remote.name}`)).toBeVisible();
    await fitsAndPasses(mate.page, "member's workspace catalog");

    // Add on the remote entry: the form is generated from it, defaults filled, the secret a password field.
    await page.goto(`/w/${team.slug}/servers/catalog`);
    await waitForHydration(page);
    const item = page.getByTestId(`catalog-item-${remote.name}`);
    await item.getByRole("button", { name: "Add" }).click();
    const form = page.getByTestId(`catalog-add-form-${remote.name}`);
    await expect(form.getByLabel("port", { exact: true })).toHaveValue(port);
    await expect(form.getByLabel("X-Region")).toHaveValue("eu");
    await expect(form.getByLabel("Authorization: token")).toHaveAttribute("type", "password");
    await fitsAndPasses(page, "Add form");
    await form.getByLabel("Credentials").selectOption("shared");
    await form.getByLabel("Authorization: token").fill("e2e-token");
    await form.getByRole("button", { name: "Save server" }).click();
    await expect(page).toHaveURL(new RegExp(`/w/${team.slug}/servers/[0-9a-f-]{36}$`));
    const serverId = page.url().split("/").pop();
    await expect
      .poll(async () => (await (await page.request.get(`/api/w/${team.slug}/servers/${serverId}/status?connect=1`)).json()).state, {
        timeout: 30_000,
      })
      .toBe("connected");
    const saved = await (await page.request.get(`/api/w/${team.slug}/servers/${serverId}`)).json();
    expect(saved.config).toMatchObject({
      url: everything.url,
      // Every header value is stored encrypted and shown masked, secret or not.
      headers: { Authorization: "********", "X-Region": "********" },
      credentials: "shared",
    });
    expect(saved.catalog).toMatchObject({ version: "1.0.0" });

    // The registry publishes 1.1.0 (a fixed X-Client header). After a sync the server's page offers
    // the update with the field it changes; applying it keeps the server connected, on 1.1.0.
    const next = structuredClone(remote);
    next.version = "1.1.0";
    (next.remotes[0].headers as { name: string; value?: string }[]).push({ name: "X-Client", value: "switchboard" });
    await registry.close();
    registry = await startRegistry([
      { server: remote, isLatest: false },
      { server: next, updatedAt: new Date(Date.now() + 60_000).toISOString() },
      { server: npm },
    ]);
    await page.goto("/admin/catalog");
    await waitForHydration(page);
    await page.getByTestId(`catalog-registry-${registry.url}`).getByRole("button", { name: "Sync now" }).click();
    await expect
      .poll(async () => (await (await page.request.get(`/api/w/${team.slug}/servers/${serverId}/catalog-update`)).json()).update?.to)
      .toBe("1.1.0");
    await page.goto(`/w/${team.slug}/servers/${serverId}`);
    await waitForHydration(page);
    const offer = page.getByTestId("catalog-update");
    await expect(offer).toContainText("Version 1.1.0 of io.example.e2e/everything");
    await expect(offer.getByTestId("catalog-update-changes")).toHaveText("headers.X-Client added to ********");
    await fitsAndPasses(page, "server page with a catalog update");
    await offer.getByRole("button", { name: "Apply update" }).click();
    await expect(offer).toHaveCount(0);
    const updated = await (await page.request.get(`/api/w/${team.slug}/servers/${serverId}`)).json();
    expect(updated.catalog).toMatchObject({ version: "1.1.0" });
    expect(Object.keys(updated.config.headers).sort()).toEqual(["Authorization", "X-Client", "X-Region"]);
    await expect
      .poll(async () => (await (await page.request.get(`/api/w/${team.slug}/servers/${serverId}/status?connect=1`)).json()).state, {
        timeout: 30_000,
      })
      .toBe("connected");

    // The stdio administrator adds the npm entry: a sandboxed stdio server, its launch line shown first.
    await boxer.page.goto(`/w/${team.slug}/servers/catalog`);
    await waitForHydration(boxer.page);
    await boxer.page.getByTestId(`catalog-item-${npm.name}`).getByRole("button", { name: "Add" }).click();
    const npmForm = boxer.page.getByTestId(`catalog-add-form-${npm.name}`);
    await expect(npmForm.getByTestId("catalog-launch")).toHaveText("npx -y @example/issues-mcp@0.6.2 --mode <mode>");
    await npmForm.getByLabel("ISSUES_TOKEN").fill("not-a-real-token");
    await npmForm.getByRole("button", { name: "Save server" }).click();
    await expect(boxer.page).toHaveURL(new RegExp(`/w/${team.slug}/servers/[0-9a-f-]{36}$`));
    const stdio = await (await boxer.page.request.get(`/api/w/${team.slug}/servers/${boxer.page.url().split("/").pop()}`)).json();
    expect(stdio).toMatchObject({
      transport: "stdio",
      config: { command: "npx", args: ["-y", "@example/issues-mcp@0.6.2", "--mode", "read"] },
    });
    expect(stdio.launch.text).toContain("npx");

    // A member may browse but not add (owners and admins add servers); outside the team the entry does not exist.
    const remoteId = (await catalogEntries(mate.page, team.slug)).find((e) => e.name === remote.name)?.id;
    const body = { option: "remote.0", name: "mine", credentials: "shared", values: { "header.Authorization.token": "t" } };
    expect((await mate.api.post(`/api/w/${team.slug}/catalog/${remoteId}/add`, { data: body, ...SETUP })).status()).toBe(403);
    expect((await outsider.api.post(`/api/catalog/${remoteId}/add`, { data: body, ...SETUP })).status()).toBe(404);

    // The owner lets members add remote entries: the member's Add of the remote entry now makes a server.
    await page.goto(`/w/${team.slug}/servers/catalog`);
    await waitForHydration(page);
    await page.getByTestId("catalog-members-add").check();
    await expect
      .poll(async () => (await (await mate.api.get(`/api/w/${team.slug}/settings/catalog`, SETUP)).json()).membersAddRemote)
      .toBe(true);
    const added = await mate.api.post(`/api/w/${team.slug}/catalog/${remoteId}/add`, { data: body, ...SETUP });
    expect(added.status()).toBe(201);
    expect(await added.json()).toMatchObject({ name: "mine", createdBy: mate.id, catalog: { version: "1.1.0" } });
  } finally {
    await registry.close();
    await Promise.all([admin.close(), boxer.close(), mate.close(), outsider.close()]);
  }
});
