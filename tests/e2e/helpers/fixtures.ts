import { test as base } from "@playwright/test";
import { startEverythingHttp, type RunningServer } from "./everything-server";

/** Playwright's `test` with a real server-everything over Streamable HTTP, one per worker. */
export const test = base.extend<object, { everything: RunningServer }>({
  everything: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring, and this one has none.
    async ({}, use) => {
      const server = await startEverythingHttp();
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
});

export { expect } from "@playwright/test";
