/**
 * Which model a user's chat uses: the user's own choice from Settings, else the workspace's
 * default, else the instance defaults from the environment. Pure: the environment and the stored
 * settings are passed in.
 */
import type { UserModelChoice } from "../domain/model-choice";
import { type EnvBag, environment } from "../env";

/** The providers the agent can talk to (AI SDK providers). */
export type ProviderId = "openai" | "anthropic" | "openai-compatible";

/** Every provider id, for validation and pickers. */
export const PROVIDERS: readonly ProviderId[] = ["openai", "anthropic", "openai-compatible"];

/** A complete model choice. `apiKey` is in clear and must never leave the server. */
export interface ModelConfig {
  provider: ProviderId;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  /** Where the choice came from, for the UI: the user's own, the workspace default, the instance's. */
  source: "user" | "workspace" | "instance";
}

/** The stored choice lives in lib/domain so the database can return it without importing the agent. */
export type { UserModelChoice };

/** The result of resolving: a config, or why there is none and how to fix it. */
export type ModelResolution = { ok: true; config: ModelConfig } | { ok: false; reason: string };

/** How to fix a missing model, shown in the chat. */
export const HOW_TO_CONFIGURE =
  "Choose a provider and model in Settings, or ask the administrator to set SWITCHBOARD_LLM_PROVIDER and SWITCHBOARD_LLM_MODEL (plus an API key) for the instance.";

function isProvider(value: unknown): value is ProviderId {
  return typeof value === "string" && (PROVIDERS as readonly string[]).includes(value);
}

function clean(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The instance's key for a provider: SWITCHBOARD_LLM_API_KEY when it is the instance provider,
 * else the provider's usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY).
 */
function instanceKeyFor(provider: ProviderId, env: Record<string, string | undefined>): string | undefined {
  const generic = clean(env.SWITCHBOARD_LLM_API_KEY);
  if (generic && provider === clean(env.SWITCHBOARD_LLM_PROVIDER)) return generic;
  if (provider === "openai") return clean(env.OPENAI_API_KEY);
  if (provider === "anthropic") return clean(env.ANTHROPIC_API_KEY);
  return undefined;
}

/**
 * Whether a user's choice may borrow the instance key: only towards the endpoint the instance
 * itself uses. A user-supplied base URL never receives the instance key (it would leak to them).
 */
function mayUseInstanceKey(provider: ProviderId, baseUrl: string | undefined, env: Record<string, string | undefined>): boolean {
  if (!baseUrl) return provider !== "openai-compatible";
  return provider === clean(env.SWITCHBOARD_LLM_PROVIDER) && baseUrl === clean(env.SWITCHBOARD_LLM_BASE_URL);
}

/**
 * Resolve a stored choice. A choice with a provider and model is used (its key, else the instance
 * key for the same provider and endpoint), labelled `source`; otherwise the instance defaults apply.
 */
export function resolveModelConfig(
  user: UserModelChoice | null,
  env: EnvBag = environment(),
  source: "user" | "workspace" = "user",
): ModelResolution {
  const userProvider = clean(user?.provider);
  const userModel = clean(user?.model);
  if (userProvider && userModel) {
    const where = source === "user" ? "your settings" : "the workspace's default model";
    if (!isProvider(userProvider)) return { ok: false, reason: `Unknown provider "${userProvider}" in ${where}. ${HOW_TO_CONFIGURE}` };
    const baseUrl = clean(user?.baseUrl);
    const borrowed = mayUseInstanceKey(userProvider, baseUrl, env) ? instanceKeyFor(userProvider, env) : undefined;
    return finish({ provider: userProvider, model: userModel, baseUrl, apiKey: clean(user?.apiKey) ?? borrowed, source });
  }
  const provider = clean(env.SWITCHBOARD_LLM_PROVIDER);
  const model = clean(env.SWITCHBOARD_LLM_MODEL);
  if (!provider || !model) return { ok: false, reason: `No model is configured. ${HOW_TO_CONFIGURE}` };
  if (!isProvider(provider)) return { ok: false, reason: `SWITCHBOARD_LLM_PROVIDER must be one of ${PROVIDERS.join(", ")}.` };
  return finish({
    provider,
    model,
    baseUrl: clean(env.SWITCHBOARD_LLM_BASE_URL),
    apiKey: instanceKeyFor(provider, env),
    source: "instance",
  });
}

/**
 * The model that really wins for a user in a workspace: their own complete choice, else the
 * workspace default (`workspace`), else the instance defaults. The one order chat and Settings share.
 */
export function effectiveModelConfig(
  own: UserModelChoice | null,
  workspace: UserModelChoice | null,
  env: EnvBag = environment(),
): ModelResolution {
  if (clean(own?.provider) && clean(own?.model)) return resolveModelConfig(own, env, "user");
  if (workspace) return resolveModelConfig(workspace, env, "workspace");
  return resolveModelConfig(own, env, "user");
}

function finish(config: ModelConfig): ModelResolution {
  if (config.provider === "openai-compatible" && !config.baseUrl) {
    return { ok: false, reason: `An OpenAI-compatible model needs a base URL. ${HOW_TO_CONFIGURE}` };
  }
  if (config.provider !== "openai-compatible" && !config.apiKey) {
    return { ok: false, reason: `No API key for ${config.provider}. ${HOW_TO_CONFIGURE}` };
  }
  return { ok: true, config };
}

/** A key shown as `sk-…abcd`: enough to recognise, never enough to use. */
export function maskKey(key: string | null | undefined): string | null {
  if (!key) return null;
  // Short keys would be mostly revealed by a prefix and suffix: show nothing of them.
  return key.length < 16 ? "••••" : `${key.slice(0, 3)}…${key.slice(-4)}`;
}
