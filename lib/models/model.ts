/**
 * Builds the AI SDK language model for a resolved config. User-supplied base URLs are fetched
 * through the SSRF guard (docs/security.md#ssrf-guard).
 */
import type { LanguageModel } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelConfig } from "./model-config";

/** A fetch the providers may use; the app passes `guardedFetchFromEnv()`. */
export type ProviderFetch = typeof globalThis.fetch;

/** The language model for `config`; `fetch` is used for every provider request. */
export function createLanguageModel(config: ModelConfig, fetch?: ProviderFetch): LanguageModel {
  switch (config.provider) {
    case "openai":
      return createOpenAI({ apiKey: config.apiKey, baseURL: config.baseUrl, fetch })(config.model);
    case "anthropic":
      return createAnthropic({ apiKey: config.apiKey, baseURL: config.baseUrl, fetch })(config.model);
    case "openai-compatible":
      // OpenAI-compatible servers send usage figures only when asked for (`includeUsage`).
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: config.baseUrl!,
        apiKey: config.apiKey,
        fetch,
        includeUsage: true,
      }).chatModel(config.model);
  }
}
