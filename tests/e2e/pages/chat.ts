import { expect, type Locator, type Page } from "@playwright/test";
import { newAccount, setupCode, waitForHydration } from "./app";

/**
 * Register and sign in through the HTTP API (the session cookie lands in the page's context),
 * then open the chat. A form submitted before the page hydrates reloads instead of registering,
 * which made UI sign-up flaky on a loaded machine.
 */
export async function signUpByApi(page: Page, account: { name: string; email: string; password: string }) {
  const request = page.context().request;
  const code = setupCode();
  expect((await request.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
  const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
  const signIn = await request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
  });
  expect(signIn.ok()).toBe(true);
  await page.goto("/chat");
  await expect(page.getByTestId("current-user")).toContainText(account.name);
}

/** Add a Streamable HTTP server through the API and wait until it is connected; returns its id. */
export async function addHttpServerByApi(page: Page, name: string, url: string, waitConnected = true): Promise<string> {
  const request = page.context().request;
  const created = await request.post("/api/servers", { data: { name, config: { url } } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  if (waitConnected) {
    await expect
      .poll(
        async () => {
          const { servers } = (await (await request.get("/api/mcp/status")).json()) as { servers: { serverId: string; state: string }[] };
          return servers.find((s) => s.serverId === id)?.state;
        },
        { timeout: 30_000 },
      )
      .toBe("connected");
  }
  return id;
}

/** Page object for the chat: chat list, composer, messages and tool cards. */
/** The scripted LLM's control address (see tests/fixtures/llm). */
export const LLM_BASE = `http://127.0.0.1:${process.env.E2E_LLM_PORT ?? 3198}`;

/**
 * A new user with server-everything (at `everythingUrl`) added and marked trusted by them (so its
 * read-only tools run without asking, as a person who vetted it would choose); returns the account
 * and the chat page object.
 */
export async function userWithEverything(page: Page, everythingUrl: string, prefix: string) {
  const account = newAccount(prefix);
  await signUpByApi(page, account);
  const id = await addHttpServerByApi(page, "everything", everythingUrl);
  expect((await page.context().request.put(`/api/servers/${id}/trust`, { data: { trusted: true } })).ok()).toBe(true);
  return { account, chat: new ChatPage(page) };
}

export class ChatPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" }).click();
    await expect(this.page.getByTestId("new-chat")).toBeVisible();
  }

  /** Start a new chat and return its id. */
  async newChat(): Promise<string> {
    // One click, once React has hydrated (a click before that does nothing). Not retried: on a
    // loaded machine a second click makes a second chat whose navigation lands after the first.
    await waitForHydration(this.page);
    const before = this.page.url();
    await this.page.getByTestId("new-chat").click();
    await expect.poll(() => this.page.url(), { timeout: 45_000 }).not.toBe(before);
    await expect(this.page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(this.page.getByTestId("chat-input")).toBeEnabled();
    // The strip is filled by client code: once it has, the page is hydrated and typing is safe.
    await expect(this.page.getByTestId("status-strip")).not.toContainText("checking…", { timeout: 30_000 });
    return this.page.url().split("/").pop()!;
  }

  async send(text: string) {
    await this.page.getByTestId("chat-input").fill(text);
    await this.page.getByTestId("chat-send").click();
  }

  input(): Locator {
    return this.page.getByTestId("chat-input");
  }

  assistantMessages(): Locator {
    return this.page.getByTestId("message-assistant");
  }

  lastAssistant(): Locator {
    return this.assistantMessages().last();
  }

  toolCards(): Locator {
    return this.page.getByTestId("tool-card");
  }

  /** Wait until the agent finished (Send is back). */
  async waitIdle() {
    await expect(this.page.getByTestId("chat-send")).toBeVisible({ timeout: 45_000 });
  }
}

/** Page object for Settings: model and tool approval policies. */
export class SettingsPage {
  constructor(private readonly page: Page) {}

  /** Open Settings from the main nav, then one of its sections (Account opens first). */
  async open(section: "Account" | "Model" | "Workspace" | "Audit" = "Account") {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await expect(this.page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    const link = this.page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: section, exact: true });
    await link.click();
    await expect(link).toHaveAttribute("aria-current", "page");
  }

  /** Choose `ask`, `allow`, `deny` or `default` for one tool. */
  async setToolPolicy(server: string, tool: string, policy: "ask" | "allow" | "deny" | "default") {
    const row = this.page.getByTestId(`policy-${server}-${tool}`);
    await expect(row).toBeVisible({ timeout: 30_000 });
    const select = row.getByRole("combobox", { name: `Policy for ${server} ${tool}`, exact: true });
    await select.selectOption(policy);
    await expect(select).toHaveValue(policy);
  }
}
