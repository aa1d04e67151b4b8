/**
 * Server-initiated LLM requests (`sampling/createMessage`, docs/configuration.md#sampling). The engine enforces the
 * per-server policy — enabled, max_tokens_cap, model override and allow-list, timeout, max_rpm,
 * max_tool_rounds — and keeps the audit figures; the host supplies the LLM through
 * `SamplingProvider` (and may put a human review in front of it).
 */
import {
  ProtocolErrorCode as RpcErrorCode,
  ProtocolError as McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
} from "@modelcontextprotocol/client";
import { clientRelay } from "./client-relay";
import type { ServerConfig, ServerDefinition } from "./config";
import type { Clock } from "./clock";
import type { Logger } from "./logger";
import { toolRoundRefusal, toolUsesIn } from "./sampling-tools";

/** The defaults of docs/configuration.md#sampling. */
export const SAMPLING_DEFAULTS = {
  enabled: true,
  max_tokens_cap: 4096,
  timeout: 30,
  max_rpm: 10,
  allowed_models: [] as string[],
  max_tool_rounds: 5,
  log_level: "info" as "debug" | "info" | "warning" | "error",
};

/** The policy of one server with defaults applied. */
export type SamplingPolicy = typeof SAMPLING_DEFAULTS & { model?: string };

/** The instance's ceiling on output tokens per sampling request when none is set (`SWITCHBOARD_SAMPLING_MAX_TOKENS`). */
export const DEFAULT_SAMPLING_MAX_TOKENS = 16_384;

/**
 * The instance ceiling from `SWITCHBOARD_SAMPLING_MAX_TOKENS` (a positive integer; default
 * 16384): no server's `max_tokens_cap` goes above it (docs/configuration.md#sampling).
 */
export function samplingMaxTokensFromEnv(env: Record<string, string | undefined>): number {
  const value = Number(env.SWITCHBOARD_SAMPLING_MAX_TOKENS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_SAMPLING_MAX_TOKENS;
}

/**
 * Apply the defaults (docs/configuration.md#sampling) to a server's `sampling` config; the
 * instance's `maxTokensCeiling` caps `max_tokens_cap`, whatever the server's config says.
 */
export function samplingPolicy(config: ServerConfig, maxTokensCeiling = DEFAULT_SAMPLING_MAX_TOKENS): SamplingPolicy {
  const s = config.sampling ?? {};
  return {
    enabled: s.enabled ?? SAMPLING_DEFAULTS.enabled,
    model: s.model,
    max_tokens_cap: Math.min(s.max_tokens_cap ?? SAMPLING_DEFAULTS.max_tokens_cap, maxTokensCeiling),
    timeout: s.timeout ?? SAMPLING_DEFAULTS.timeout,
    max_rpm: s.max_rpm ?? SAMPLING_DEFAULTS.max_rpm,
    allowed_models: s.allowed_models ?? SAMPLING_DEFAULTS.allowed_models,
    max_tool_rounds: s.max_tool_rounds ?? SAMPLING_DEFAULTS.max_tool_rounds,
    log_level: s.log_level ?? SAMPLING_DEFAULTS.log_level,
  };
}

/** What the host's LLM is asked, after the policy was applied. */
export interface SamplingRequest {
  params: CreateMessageRequest["params"];
  /** `params.maxTokens` capped by `max_tokens_cap` (itself capped by the instance's ceiling). */
  maxTokens: number;
  /** The policy's model override, else the first model hint the allow-list permits, else undefined (host default). */
  model?: string;
  /** Non-empty: the host must not use a model outside this list. */
  allowedModels: string[];
  /** The policy's `max_tool_rounds` (0 = tools are never offered to the model). */
  maxToolRounds: number;
}

/** The host's answer: the MCP result (with `tool_use` blocks when tools were offered) plus token figures. */
export interface SamplingResponse {
  result: CreateMessageResult;
  usage?: { inputTokens?: number; outputTokens?: number };
}

/** The host's LLM access for sampling; `signal` fires on timeout or when the server cancels. */
export type SamplingProvider = (
  userId: string,
  server: ServerDefinition,
  request: SamplingRequest,
  signal: AbortSignal,
) => Promise<SamplingResponse>;

/** Audit figures per (user, server) (docs/configuration.md#sampling). */
export interface SamplingAudit {
  requests: number;
  errors: number;
  rejected: number;
  inputTokens: number;
  outputTokens: number;
  toolUses: number;
}

const RATE_WINDOW_MS = 60_000;
// JSON-RPC error the spec suggests for a request the user (or its policy) declines.
const REJECTED = -1;

/** Applies one server's sampling policy in front of the host's provider and counts the audit. */
export class SamplingGate {
  private readonly recent: number[] = [];
  private readonly figures: SamplingAudit = { requests: 0, errors: 0, rejected: 0, inputTokens: 0, outputTokens: 0, toolUses: 0 };
  readonly policy: SamplingPolicy;

  constructor(
    private readonly userId: string,
    private readonly server: ServerDefinition,
    private readonly provider: SamplingProvider | undefined,
    private readonly clock: Clock,
    private readonly logger: Logger,
    maxTokensCeiling?: number,
  ) {
    this.policy = samplingPolicy(server.config, maxTokensCeiling);
  }

  /** Whether the client should declare the sampling capability to this server. */
  get offered(): boolean {
    return !!this.provider && this.policy.enabled;
  }

  /** Audit figures so far. */
  audit(): SamplingAudit {
    return { ...this.figures };
  }

  /** Handle one `sampling/createMessage`; policy refusals become JSON-RPC errors for the server. */
  async handle(params: CreateMessageRequest["params"], signal: AbortSignal): Promise<CreateMessageResult> {
    this.figures.requests++;
    const refusal = this.refusal(params);
    if (refusal) {
      this.figures.rejected++;
      this.log("warning", `sampling request refused: ${refusal}`);
      throw new McpError(REJECTED, refusal);
    }
    this.recent.push(this.clock.now());
    const request: SamplingRequest = {
      params,
      maxTokens: Math.min(params.maxTokens, this.policy.max_tokens_cap),
      model: this.policy.model ?? this.permittedHint(params),
      allowedModels: this.policy.allowed_models,
      maxToolRounds: this.policy.max_tool_rounds,
    };
    const timeout = new AbortController();
    const timer = this.clock.setTimeout(() => timeout.abort(new Error("sampling timed out")), this.policy.timeout * 1000);
    const onAbort = () => timeout.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      // A request made for another client has that client's model answer, under this same policy (client-relay.ts).
      const relayed = clientRelay()?.sample?.({ ...params, maxTokens: request.maxTokens }, timeout.signal);
      const response = await Promise.race([
        relayed
          ? relayed.then((result): SamplingResponse => ({ result }))
          : this.provider!(this.userId, this.server, request, timeout.signal),
        new Promise<never>((_, reject) => timeout.signal.addEventListener("abort", () => reject(timeout.signal.reason), { once: true })),
      ]);
      this.figures.inputTokens += response.usage?.inputTokens ?? 0;
      this.figures.outputTokens += response.usage?.outputTokens ?? 0;
      // Counted from the answer itself: the figure does not depend on the host reporting it.
      const toolUses = toolUsesIn(response.result);
      this.figures.toolUses += toolUses;
      this.log("info", `sampling answered (${response.usage?.outputTokens ?? "?"} output tokens, ${toolUses} tool uses)`);
      return response.result;
    } catch (error) {
      this.figures.errors++;
      const message =
        timeout.signal.aborted && !signal.aborted
          ? `sampling timed out after ${this.policy.timeout} s`
          : error instanceof Error
            ? error.message
            : String(error);
      this.log("error", `sampling failed: ${message}`);
      throw error instanceof McpError ? error : new McpError(RpcErrorCode.InternalError, message);
    } finally {
      this.clock.clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }

  private refusal(params: CreateMessageRequest["params"]): string | null {
    if (!this.offered) return "sampling is disabled for this server";
    const now = this.clock.now();
    while (this.recent.length && now - this.recent[0] >= RATE_WINDOW_MS) this.recent.shift();
    if (this.recent.length >= this.policy.max_rpm) return `sampling rate limit reached (${this.policy.max_rpm} requests per minute)`;
    return toolRoundRefusal(params, this.policy.max_tool_rounds);
  }

  private permittedHint(params: CreateMessageRequest["params"]): string | undefined {
    const hints = (params.modelPreferences?.hints ?? []).map((h) => h.name).filter((n): n is string => !!n);
    if (this.policy.allowed_models.length === 0) return undefined; // hints are advisory; the host's model stands
    return hints.find((name) => this.policy.allowed_models.includes(name));
  }

  private log(level: "info" | "warning" | "error", message: string): void {
    const order = ["debug", "info", "warning", "error"];
    if (order.indexOf(level) < order.indexOf(this.policy.log_level)) return;
    const fields = { userId: this.userId, serverId: this.server.id, server: this.server.name };
    if (level === "error") this.logger.error(message, fields);
    else if (level === "warning") this.logger.warn(message, fields);
    else this.logger.info(message, fields);
  }
}
