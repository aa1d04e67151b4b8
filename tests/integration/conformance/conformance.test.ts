/**
 * The official MCP conformance suite 0.1.16 against `switchboard conformance`, which drives the
 * engine: every one of its 26 client scenarios, one at a time, with the strict verdict of runner.ts.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { expectScenarioPasses, listScenarios, SUITES, TEST_TIMEOUT_MS } from "./runner";

/** Every client scenario of the suite (26 in 0.1.16), including the four non-auth ones. */
const SCENARIOS = [
  "initialize",
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "sse-retry",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
];

describe("MCP conformance suite 0.1.16, client scenarios", () => {
  it("is installed (npm ci --prefix tools/conformance) and lists exactly these scenarios", async () => {
    expect(fs.existsSync(SUITES["0.1.16"]), `missing ${SUITES["0.1.16"]}: run npm ci --prefix tools/conformance`).toBe(true);
    expect((await listScenarios("0.1.16")).sort()).toEqual([...SCENARIOS].sort());
  });

  it.each(SCENARIOS)("%s passes", (scenario) => expectScenarioPasses("0.1.16", scenario), TEST_TIMEOUT_MS);
});
