/**
 * Prices and cost (docs/usage.md#prices): the defaults for common models of the supported
 * providers, the lookup order (the workspace's own table, the instance's, the defaults), and the
 * cost of one model request in micro-dollars, computed when it is recorded.
 */

/** A price in micro-dollars per million tokens (so $2.50/M is 2_500_000). */
export interface Price {
  inputMicrosPerM: number;
  outputMicrosPerM: number;
  cachedMicrosPerM: number;
}

const usd = (input: number, output: number, cached: number): Price => ({
  inputMicrosPerM: Math.round(input * 1e6),
  outputMicrosPerM: Math.round(output * 1e6),
  cachedMicrosPerM: Math.round(cached * 1e6),
});

/**
 * List prices (USD per million tokens: input, output, cached input) as the providers published them
 * in 2025; a model id matches the longest key it starts with (`claude-sonnet-4-20250514` →
 * `claude-sonnet-4`). Administrators correct them in the price table; OpenAI-compatible servers have
 * no defaults (their prices are the operator's).
 */
export const DEFAULT_PRICES: Readonly<Record<string, Readonly<Record<string, Price>>>> = {
  openai: {
    "gpt-4o": usd(2.5, 10, 1.25),
    "gpt-4o-mini": usd(0.15, 0.6, 0.075),
    "gpt-4.1": usd(2, 8, 0.5),
    "gpt-4.1-mini": usd(0.4, 1.6, 0.1),
    "gpt-4.1-nano": usd(0.1, 0.4, 0.025),
    "gpt-5": usd(1.25, 10, 0.125),
    "gpt-5-mini": usd(0.25, 2, 0.025),
    "gpt-5-nano": usd(0.05, 0.4, 0.005),
    o3: usd(2, 8, 0.5),
    "o4-mini": usd(1.1, 4.4, 0.275),
  },
  anthropic: {
    "claude-opus-4": usd(15, 75, 1.5),
    "claude-sonnet-4": usd(3, 15, 0.3),
    "claude-3-7-sonnet": usd(3, 15, 0.3),
    "claude-haiku-4-5": usd(1, 5, 0.1),
    "claude-3-5-haiku": usd(0.8, 4, 0.08),
  },
};

/** The default price of `model` of `provider` (longest matching prefix), or undefined. */
export function defaultPrice(provider: string, model: string): Price | undefined {
  const table = DEFAULT_PRICES[provider];
  if (!table) return undefined;
  let best: string | undefined;
  for (const key of Object.keys(table)) if (model.startsWith(key) && (!best || key.length > best.length)) best = key;
  return best ? table[best] : undefined;
}

/** Token counts of one model request as the provider reported them (`input` includes `cached`). */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

/** The cost in micro-dollars: uncached input, cached input and output, each at its price. */
export function costMicros(tokens: TokenCounts, price: Price | undefined): number {
  if (!price) return 0;
  const cached = Math.min(tokens.cachedTokens, tokens.inputTokens);
  const micros =
    ((tokens.inputTokens - cached) * price.inputMicrosPerM +
      cached * price.cachedMicrosPerM +
      tokens.outputTokens * price.outputMicrosPerM) /
    1e6;
  return Math.round(micros);
}

/** The provider of an AI SDK model id (`openai.chat`, `anthropic.messages`, `openai-compatible.chat` → the part before the dot). */
export function providerOf(sdkProvider: string): string {
  return sdkProvider.split(".")[0] || sdkProvider;
}
