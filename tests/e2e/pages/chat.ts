import { expect, type Locator, type Page } from "@playwright/test";

/** Page object for the chat: chat list, composer, messages and tool cards. */
export class ChatPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" }).click();
    await expect(this.page.getByTestId("new-chat")).toBeVisible();
  }

  /** Start a new chat and return its id. */
  async newChat(): Promise<string> {
    await this.page.getByTestId("new-chat").click();
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

  async open() {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await expect(this.page.getByRole("heading", { name: "Settings" })).toBeVisible();
  }

  /** Choose `ask`, `allow`, `deny` or `default` for one tool. */
  async setToolPolicy(server: string, tool: string, policy: "ask" | "allow" | "deny" | "default") {
    const row = this.page.getByTestId(`policy-${server}-${tool}`);
    await expect(row).toBeVisible({ timeout: 30_000 });
    const select = row.getByRole("combobox");
    await select.selectOption(policy);
    await expect(select).toHaveValue(policy);
  }
}
