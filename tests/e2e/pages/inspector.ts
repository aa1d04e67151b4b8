import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./app";

/** Page object for the server inspector (`/w/<slug>/servers/<id>`). */
export class InspectorPage {
  constructor(private readonly page: Page) {}

  /** Open the inspector of the server named `name` from the Servers page, on `tab`. */
  async openFromServers(name: string, tab: "tools" | "resources" | "prompts" | "logs" = "tools") {
    await this.page.goto("/servers");
    await this.page.getByTestId(`server-${name}`).getByTestId("inspect-server").click();
    await expect(this.page.getByTestId("inspector-title")).toHaveText(name);
    if (tab !== "tools") await this.page.getByTestId(`tab-${tab}`).click();
    await waitForHydration(this.page);
  }

  /** The live state badge of the inspected server. */
  state() {
    return this.page.getByTestId("inspector").getByTestId("server-state");
  }
}
