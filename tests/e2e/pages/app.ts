import { expect, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

/**
 * The instance administrator: foundation.spec registers it first (every run has a fresh data dir),
 * other specs sign in with it when they need admin rights.
 */
export const ADMIN = { name: "Admin", email: "admin@example.com", password: "a long admin password" };

/** A new account's credentials, unique per call. */
export function newAccount(prefix: string) {
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  return { name: `${prefix} ${id}`, email: `${prefix}-${id}@example.com`.toLowerCase(), password: "a long test password" };
}

/**
 * The instance's first-run setup code while it has no account (the server writes it to
 * `<data dir>/setup-code` at start-up and removes it once the first account exists), else undefined.
 */
export function setupCode(): string | undefined {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) return undefined;
  try {
    return fs.readFileSync(path.join(dir, "setup-code"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Wait until React has hydrated the page (a click before that reloads the form instead of submitting). */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
}

/** Page object for sign-up, sign-in and sign-out. */
export class AuthPages {
  constructor(private readonly page: Page) {}

  async register(account: { name: string; email: string; password: string }) {
    await this.page.goto("/register");
    await waitForHydration(this.page);
    // A fresh instance asks for the setup code (the first account becomes the administrator).
    const code = setupCode();
    if (code && (await this.page.getByLabel("Setup code").count()) > 0) await this.page.getByLabel("Setup code").fill(code);
    await this.page.getByLabel("Name").fill(account.name);
    await this.page.getByLabel("Email").fill(account.email);
    await this.page.getByLabel(/Password/).fill(account.password);
    await this.page.getByRole("button", { name: "Create account" }).click();
    await expect(this.page.getByTestId("current-user")).toContainText(account.name);
  }

  async signIn(account: { email: string; password: string }) {
    await this.page.goto("/signin");
    await waitForHydration(this.page);
    await this.page.getByLabel("Email").fill(account.email);
    await this.page.getByLabel("Password").fill(account.password);
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(this.page.getByTestId("current-user")).toBeVisible();
  }

  async signOut() {
    await this.page.getByRole("button", { name: "Sign out" }).click();
    await expect(this.page).toHaveURL(/\/signin/);
  }
}

/** Page object for the Servers page. */
export class ServersPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Servers" }).click();
    await expect(this.page.getByRole("heading", { name: "MCP servers" })).toBeVisible();
    await waitForHydration(this.page);
  }

  async startAdding(name: string) {
    await this.page.getByRole("button", { name: "Add server" }).click();
    await this.page.getByLabel(/^Name/).fill(name);
  }

  async addHttp(name: string, url: string, headers = "") {
    await this.startAdding(name);
    await this.page.getByLabel("URL").fill(url);
    if (headers) await this.page.getByLabel(/^Headers/).fill(headers);
    await this.page.getByRole("button", { name: "Add server" }).last().click();
    await expect(this.page.getByTestId(`server-${name}`)).toBeVisible();
  }

  /** Download the page's export from the Import / export panel (a link, not a fetch) and return the file's text. */
  async exportServers(format: "yaml" | "json"): Promise<string> {
    await this.page.getByTestId("open-import").click();
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.page.getByTestId(`export-${format}`).click()]);
    const text = fs.readFileSync(await download.path(), "utf8");
    await this.page.getByRole("button", { name: "Cancel" }).click();
    return text;
  }

  async addStdio(name: string, command: string, args: string[]) {
    await this.startAdding(name);
    await this.page.getByLabel("Local (stdio)").check();
    await this.page.getByLabel("Command").fill(command);
    await this.page.getByLabel(/^Arguments/).fill(args.join("\n"));
    await this.page.getByRole("button", { name: "Add server" }).last().click();
    await expect(this.page.getByTestId(`server-${name}`)).toBeVisible();
  }
}
