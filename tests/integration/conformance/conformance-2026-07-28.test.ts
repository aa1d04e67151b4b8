/**
 * The official MCP conformance suite 0.2.0-alpha.12 at protocol 2026-07-28 against
 * `switchboard conformance` (the engine negotiating the modern era): all 33 client scenarios, one
 * at a time, strict verdict.
 */
import { describe, expect, it } from "vitest";
import { expectScenarioPasses, listScenarios, TEST_TIMEOUT_MS } from "./runner";

const VERSION = "2026-07-28";
const SCENARIOS = [
  "tools_call",
  "request-metadata",
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
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
  "sep-2322-client-request-state",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
  "json-schema-2020-12-preservation",
];

describe(`MCP conformance suite 0.2.0-alpha.12 at ${VERSION}`, () => {
  it("lists exactly these 33 client scenarios", async () => {
    expect((await listScenarios("0.2.0-alpha.12", VERSION)).sort()).toEqual([...SCENARIOS].sort());
  });

  it.each(SCENARIOS)("%s passes", (scenario) => expectScenarioPasses("0.2.0-alpha.12", scenario, VERSION), TEST_TIMEOUT_MS);
});
