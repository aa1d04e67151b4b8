/**
 * The upstream's questions during a gateway request, asked of the gateway's own client
 * (docs/gateway.md#questions-from-the-server): an `elicitation/create` or `sampling/createMessage`
 * the server sends while the request runs goes to the MCP client that made the request, on that
 * request's stream, when the client declared it can answer; otherwise Switchboard answers as for
 * the chat (the member is asked in the app, the workspace's model samples).
 *
 * A 2026-07-28 request has no stream for server requests: a 2026-07-28 server's `input_required`
 * answer is handed back to it (its own multi-round trip: its retry's `inputResponses` and
 * `requestState` go to the server, with the capabilities it declared), and a 2025-era server's
 * questions are answered by Switchboard.
 */
import "server-only";
import type { CreateMessageResult } from "@modelcontextprotocol/client";
import { type InputRequiredResult, ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from "@modelcontextprotocol/server";
import { environment } from "../../env";
import { samplingMaxTokensFromEnv, samplingPolicy, type SamplingPolicy, type ServerConfig } from "../../mcp";
import { type ClientRelay, withClientRelay } from "../../mcp/client-relay";
import { isSafeLinkUrl } from "../../net/url-safety";
import { redactForDisplay } from "../../redact";
import { stripInvisible } from "../../trust/untrusted-text";
import { isPrivateTarget } from "../../runtime/elicitation-checks";
import { ELICITATION_TTL_MS } from "../../runtime/elicitations";

/**
 * Run `request` (an upstream request made for the client of `mcp`) with the client answering the
 * upstream's questions it can; for a 2026-07-28 request, the upstream's `input_required` answer
 * when there was one (for the client to fulfil and retry).
 */
export async function askingClient<T>(
  mcp: Server,
  ctx: ServerContext,
  request: () => Promise<T>,
  upstream: UpstreamRules,
): Promise<T | InputRequiredResult> {
  const relay = clientRelayFor(mcp, ctx, upstream.config);
  if (!relay) return await request();
  const result = await withClientRelay(relay, request);
  const refusal = relay.roundTrip?.refusal;
  if (refusal) refuseAsUpstream(refusal, upstream.secrets);
  return relay.roundTrip?.returned ? handedBack(relay.roundTrip.returned, samplingPolicyOf(upstream.config)) : result;
}

/** What of the upstream's config the relay applies: its secrets (redacted from what the client sees) and its sampling policy. */
export interface UpstreamRules {
  config: ServerConfig;
  secrets: string[];
}

/** The server's sampling policy under the instance's ceiling, as the engine applies it. */
const samplingPolicyOf = (config: ServerConfig) => samplingPolicy(config, samplingMaxTokensFromEnv(environment()));

// The upstream's refusals of a round trip that the client gets as the same JSON-RPC error.
const ROUND_TRIP_REFUSALS = new Set<number>([ProtocolErrorCode.InvalidParams, ProtocolErrorCode.MissingRequiredClientCapability]);
const REFUSAL_MESSAGE_MAX = 1000;

/**
 * Throw the upstream's refusal of a 2026-07-28 leg as the client's error: invalid params (a
 * tampered `requestState`, unusable input responses) and a missing capability (-32021, with the
 * capabilities it names) keep their code; the message is the upstream's, redacted and cut. Any
 * other failure stays the tool's error result, as for the chat.
 */
function refuseAsUpstream(refusal: ProtocolError, secrets: string[]): void {
  if (!ROUND_TRIP_REFUSALS.has(refusal.code)) return;
  const message = redactForDisplay(stripInvisible(refusal.message), secrets, REFUSAL_MESSAGE_MAX);
  const required = (refusal.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  const data =
    refusal.code === ProtocolErrorCode.MissingRequiredClientCapability && isObject(required)
      ? { requiredCapabilities: required }
      : undefined;
  throw new ProtocolError(refusal.code, message, data);
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

/** What the client of `mcp` can answer during the request `ctx`, or null when nothing. */
export function clientRelayFor(mcp: Server, ctx: ServerContext, config: ServerConfig): ClientRelay | null {
  const capabilities = mcp.getClientCapabilities();
  // 2026-07-28 requests carry an envelope: the client runs its own round trips. The server hears of
  // the client's sampling only where its policy allows sampling (as the engine declares it).
  if (ctx.mcpReq.envelope !== undefined) {
    const { sampling: _sampling, ...withoutSampling } = capabilities ?? {};
    const declared = samplingPolicyOf(config).enabled ? capabilities : withoutSampling;
    const { inputResponses } = ctx.mcpReq;
    // The wire string as the client echoed it: the upstream minted it and checks it (the proxy has no codec).
    const requestState = ctx.mcpReq.requestState<string>();
    return {
      roundTrip: {
        ...(inputResponses !== undefined ? { inputResponses } : {}),
        ...(requestState !== undefined ? { requestState } : {}),
        ...(declared ? { capabilities: declared } : {}),
      },
    };
  }
  const elicitation = capabilities?.elicitation;
  // `elicitation: {}` is form mode (the 2025-06-18 shape).
  const modes = { form: !!elicitation && (!!elicitation.form || !elicitation.url), url: !!elicitation?.url };
  // On this request's own stream: the SDK leaves the related request out otherwise (see approveThroughClient).
  const options = (signal: AbortSignal) => ({ relatedRequestId: ctx.mcpReq.id, signal, timeout: ELICITATION_TTL_MS });
  const relay: ClientRelay = {};
  if (modes.form || modes.url) {
    relay.elicit = (params, signal) => {
      const mode = params.mode === "url" ? "url" : "form";
      if (!modes[mode]) return undefined;
      // The same refusals as in the app: a server may only send the user to a public http(s) page.
      if (mode === "url") {
        const url = (params as { url: string }).url;
        if (!isSafeLinkUrl(url) || isPrivateTarget(url)) return Promise.resolve({ action: "decline" as const });
      }
      return ctx.mcpReq.elicitInput(params as Parameters<typeof ctx.mcpReq.elicitInput>[0], options(signal));
    };
  }
  if (capabilities?.sampling) {
    // A request offering tools needs a client that declared `sampling.tools`; otherwise the host
    // answers. (A result with tool_use blocks is still a sampling result: the engine's type names
    // only the plain shape, hence the cast.)
    relay.sample = (params, signal) =>
      params.tools?.length && !capabilities.sampling?.tools
        ? undefined
        : (ctx.mcpReq.requestSampling(params, options(signal)) as Promise<CreateMessageResult>);
  }
  return relay.elicit || relay.sample ? relay : null;
}

/**
 * An upstream's `input_required` as the client gets it: the same requests and state, but a URL
 * elicitation to anything but a public http(s) page refuses the request (as the app declines it),
 * and a sampling request's `maxTokens` is capped by the server's `max_tokens_cap`.
 */
function handedBack(result: InputRequiredResult, sampling: SamplingPolicy): InputRequiredResult {
  const inputRequests: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
    const { method, params } = request as { method?: string; params?: { mode?: string; url?: unknown; maxTokens?: unknown } };
    if (params?.mode === "url") {
      const url = typeof params.url === "string" ? params.url : "";
      if (!isSafeLinkUrl(url) || isPrivateTarget(url)) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          "The server asked to open a page that is not a public http(s) address: refused.",
        );
      }
    }
    const capped =
      method === "sampling/createMessage" && typeof params?.maxTokens === "number" && params.maxTokens > sampling.max_tokens_cap;
    inputRequests[key] = capped ? { ...request, params: { ...params, maxTokens: sampling.max_tokens_cap } } : request;
  }
  return { ...result, inputRequests } as InputRequiredResult;
}
