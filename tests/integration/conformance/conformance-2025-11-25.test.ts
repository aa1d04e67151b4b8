/**
 * The official MCP conformance suite 0.2.0-alpha.12 at protocol 2025-11-25 against
 * `switchboard conformance` (the engine): all 19 client scenarios, one at a time, strict verdict.
 */
import { describe, expect, it } from "vitest";
import { expectScenarioPasses, listScenarios, TEST_TIMEOUT_MS } from "./runner";

const VERSION = "2025-11-25";
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
  "json-schema-2020-12-preservation",
];

describe(`MCP conformance suite 0.2.0-alpha.12 at ${VERSION}`, () => {
  it("lists exactly these 19 client scenarios", async () => {
    expect((await listScenarios("0.2.0-alpha.12", VERSION)).sort()).toEqual([...SCENARIOS].sort());
  });

  it.each(SCENARIOS)("%s passes", (scenario) => expectScenarioPasses("0.2.0-alpha.12", scenario, VERSION), TEST_TIMEOUT_MS);
});
