import { describe, expect, it } from "vitest";
import { effectiveModelConfig, maskKey, resolveModelConfig } from "@/lib/models/model-config";
// Imported with the file, not inside the test: loading the agent (the AI SDK) is no part of the behaviour under test.
import { maxAgentSteps } from "@/lib/agent/run-chat";

describe("model resolution", () => {
  it("says what to do when nothing is configured", () => {
    const r = resolveModelConfig(null, {});
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/Settings.*SWITCHBOARD_LLM_PROVIDER/);
  });

  it("uses the instance defaults with the provider's usual key variable", () => {
    expect(
      resolveModelConfig(null, { SWITCHBOARD_LLM_PROVIDER: "openai", SWITCHBOARD_LLM_MODEL: "gpt-x", OPENAI_API_KEY: "sk-1" }),
    ).toEqual({
      ok: true,
      config: { provider: "openai", model: "gpt-x", baseUrl: undefined, apiKey: "sk-1", source: "instance" },
    });
    const anthropic = resolveModelConfig(null, {
      SWITCHBOARD_LLM_PROVIDER: "anthropic",
      SWITCHBOARD_LLM_MODEL: "claude",
      ANTHROPIC_API_KEY: "a-1",
      SWITCHBOARD_LLM_API_KEY: "generic",
    });
    expect(anthropic.ok && anthropic.config.apiKey).toBe("generic");
  });

  it("lets a user's own provider, model, base URL and key win", () => {
    const r = resolveModelConfig(
      { provider: "openai-compatible", model: "llama", baseUrl: "http://llm.example/v1", apiKey: "k" },
      { SWITCHBOARD_LLM_PROVIDER: "openai", SWITCHBOARD_LLM_MODEL: "gpt-x", OPENAI_API_KEY: "sk" },
    );
    expect(r).toEqual({
      ok: true,
      config: { provider: "openai-compatible", model: "llama", baseUrl: "http://llm.example/v1", apiKey: "k", source: "user" },
    });
  });

  it("the model that wins: the user's own, else the workspace default, else the instance's, each named by source", () => {
    const env = { SWITCHBOARD_LLM_PROVIDER: "openai", SWITCHBOARD_LLM_MODEL: "gpt-x", OPENAI_API_KEY: "sk" };
    const own = { provider: "anthropic", model: "claude", apiKey: "a" };
    const team = { provider: "openai-compatible", model: "team-llm", baseUrl: "http://llm.example/v1", apiKey: null };
    const pick = (r: ReturnType<typeof effectiveModelConfig>) => (r.ok ? [r.config.model, r.config.source] : r.reason);
    expect(pick(effectiveModelConfig(own, team, env))).toEqual(["claude", "user"]);
    expect(pick(effectiveModelConfig(null, team, env))).toEqual(["team-llm", "workspace"]);
    // An unfinished own choice (a provider without a model) does not hide the workspace default.
    expect(pick(effectiveModelConfig({ provider: "openai", model: null }, team, env))).toEqual(["team-llm", "workspace"]);
    expect(pick(effectiveModelConfig(null, null, env))).toEqual(["gpt-x", "instance"]);
    const broken = effectiveModelConfig(null, { provider: "bogus", model: "m" }, env);
    expect(!broken.ok && broken.reason).toMatch(/in the workspace's default model/);
  });

  it("a user choosing a provider without a key falls back to the instance key for it", () => {
    const r = resolveModelConfig({ provider: "openai", model: "gpt-y" }, { OPENAI_API_KEY: "sk-inst" });
    expect(r.ok && r.config.apiKey).toBe("sk-inst");
    const same = resolveModelConfig(
      { provider: "openai-compatible", model: "m2", baseUrl: "http://llm.internal/v1" },
      {
        SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
        SWITCHBOARD_LLM_MODEL: "m",
        SWITCHBOARD_LLM_BASE_URL: "http://llm.internal/v1",
        SWITCHBOARD_LLM_API_KEY: "inst-key",
      },
    );
    expect(same.ok && same.config.apiKey).toBe("inst-key");
  });

  it("never sends the instance key to a base URL the user chose", () => {
    const env = {
      SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
      SWITCHBOARD_LLM_MODEL: "m",
      SWITCHBOARD_LLM_BASE_URL: "http://llm.internal/v1",
      SWITCHBOARD_LLM_API_KEY: "inst-key",
      OPENAI_API_KEY: "sk-inst",
    };
    const compat = resolveModelConfig({ provider: "openai-compatible", model: "x", baseUrl: "https://attacker.example/v1" }, env);
    expect(compat.ok && compat.config.apiKey).toBeUndefined();
    const openai = resolveModelConfig({ provider: "openai", model: "x", baseUrl: "https://attacker.example/v1" }, env);
    expect(openai.ok).toBe(false);
    // The generic key belongs to the instance provider only.
    const anthropic = resolveModelConfig({ provider: "anthropic", model: "claude" }, env);
    expect(anthropic.ok).toBe(false);
  });

  it("rejects incomplete configurations with a reason", () => {
    expect(resolveModelConfig(null, { SWITCHBOARD_LLM_PROVIDER: "openai-compatible", SWITCHBOARD_LLM_MODEL: "m" }).ok).toBe(false);
    expect(resolveModelConfig(null, { SWITCHBOARD_LLM_PROVIDER: "openai", SWITCHBOARD_LLM_MODEL: "m" }).ok).toBe(false);
    expect(resolveModelConfig(null, { SWITCHBOARD_LLM_PROVIDER: "bogus", SWITCHBOARD_LLM_MODEL: "m" }).ok).toBe(false);
    // An openai-compatible endpoint may need no key (local servers).
    expect(
      resolveModelConfig(null, {
        SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
        SWITCHBOARD_LLM_MODEL: "m",
        SWITCHBOARD_LLM_BASE_URL: "http://x/v1",
      }).ok,
    ).toBe(true);
  });

  it("masks keys", () => {
    expect(maskKey("sk-abcdefghijklmnop")).toBe("sk-…mnop");
    expect(maskKey("short")).toBe("••••");
    expect(maskKey("fifteen-chars-k")).toBe("••••");
    expect(maskKey(null)).toBeNull();
  });
});

describe("agent step bound", () => {
  it("reads SWITCHBOARD_AGENT_MAX_STEPS with a default of 10", () => {
    expect(maxAgentSteps({})).toBe(10);
    expect(maxAgentSteps({ SWITCHBOARD_AGENT_MAX_STEPS: "3" })).toBe(3);
    expect(maxAgentSteps({ SWITCHBOARD_AGENT_MAX_STEPS: "0" })).toBe(10);
    expect(maxAgentSteps({ SWITCHBOARD_AGENT_MAX_STEPS: "abc" })).toBe(10);
    expect(maxAgentSteps({ SWITCHBOARD_AGENT_MAX_STEPS: "1000" })).toBe(100);
  });
});
