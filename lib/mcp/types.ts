/**
 * Public types of the MCP engine: what the pool returns to API routes, the agent and the CLI.
 * Kept free of Next, React, the AI SDK and the database (STYLE "lib/mcp knows nothing of...").
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import type {
  CallToolResult,
  ElicitRequest,
  ElicitResult,
  LoggingMessageNotification,
  Icon,
  ToolAnnotations,
} from "@modelcontextprotocol/client";
import type { ToolUi } from "./apps";
import type { ServerDefinition } from "./config";
import type { LaunchWrapper } from "./launch";
import type { Clock } from "./clock";
import type { Logger } from "./logger";
import type { StdioPlacement } from "./placement";
import type { RefusedTool } from "./discovery";
import type { ErrorCode } from "./errors";
import type { SamplingAudit, SamplingProvider } from "./sampling";
import type { EngineLimits, LimitCounters } from "./limits";

/** What a registered tool does: a server tool or one of the resource/prompt wrappers (docs/architecture.md#tools-the-model-sees). */
export type RegisteredKind = "tool" | "list_resources" | "read_resource" | "list_prompts" | "get_prompt";

/** A tool as offered to the model: provider-safe `name`, plus the way back to the server. */
export interface RegisteredTool {
  name: string;
  serverId: string;
  serverName: string;
  rawName: string;
  kind: RegisteredKind;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server tool's declared output schema, when it has one (part of its pinned definition). */
  outputSchema?: Record<string, unknown>;
  /** Hints from an untrusted server (docs/security.md#untrusted-server-content): display only, never a security decision. */
  annotations?: ToolAnnotations;
  /** Icons the server declared for the tool (untrusted URLs: display only, through the host's own checks). */
  icons?: Icon[];
  /** The tool's MCP App (`_meta.ui.resourceUri`), rendered by the host beside the result (docs/mcp-apps.md). */
  ui?: ToolUi;
}

/** The result of one call: the model's JSON shape, the full MCP content for the UI, and timing. */
export interface ToolCallOutcome {
  forModel: { result: unknown } | { error: string };
  content: CallToolResult;
  isError: boolean;
  durationMs: number;
  /** Set when the call failed inside the engine (timeout, cancel, drop...), not by the tool itself. */
  errorCode?: ErrorCode;
}

/** Per-call options: cancellation (sends notifications/cancelled) and progress updates. */
export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Run the call as a task when the tool allows it (`taskSupport: optional`); `required` tools always are (docs/protocol.md#tasks). */
  asTask?: boolean;
}

/** Connection state of one (user, server); `idle` = never connected or evicted. */
export type ServerState = "idle" | "connecting" | "connected" | "needs_authorization" | "reconnecting" | "failed" | "disabled";

/**
 * Which wire a connection uses; `relay`: a stdio server whose sandbox runs on another replica, each
 * request forwarded to it (lib/mcp/placement.ts).
 */
export type TransportUsed = "stdio" | "streamable_http" | "sse" | "relay";

/** Call figures over a bounded window of recent calls. */
export interface CallMetrics {
  calls: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

/** Snapshot of one (user, server), shown as the server's status (docs/architecture.md#connection-lifecycle). */
export interface ServerStatus {
  userId: string;
  serverId: string;
  serverName: string;
  state: ServerState;
  transport: TransportUsed | null;
  /** Redacted; `code` lets the UI pick a hint without matching message text. */
  lastError: { code: ErrorCode; message: string } | null;
  /** Set in `needs_authorization` when the server asked for a wider scope (403 `insufficient_scope`): what Connect asks for. */
  stepUp: { scope: string } | null;
  counts: { tools: number; resources: number; resourceTemplates: number; prompts: number };
  metrics: CallMetrics;
  /** Sampling audit figures (docs/configuration.md#sampling). */
  sampling: SamplingAudit;
  /** Redacted tail of the child's stderr (stdio only). */
  stderrTail: string;
  serverInfo: { name: string; version: string; title?: string; icons?: Icon[] } | null;
  /** The negotiated protocol: era "modern" (2026-07-28) or "legacy" (2025-11-25 and older), and version. */
  protocol: { era: "modern" | "legacy"; version: string | null } | null;
  /** During `reconnecting`: the attempt (1-5) and when it fires (epoch ms). */
  reconnect: { attempt: number; at: number } | null;
  pid: number | null;
  sessionId: string | null;
  /** Limit counters of the current (or last) connection; null before the first connect. */
  limits: LimitCounters | null;
  /** Listed tools the engine refused as server defects (a duplicate name, unusable headers), with why. */
  refusedTools: RefusedTool[];
}

/** Builds an SDK OAuth provider for (user, server); undefined = no OAuth for it. */
export type AuthProviderFactory = (
  userId: string,
  server: ServerDefinition,
) => OAuthClientProvider | undefined | Promise<OAuthClientProvider | undefined>;

/** Answers a server's elicitation request on behalf of the user. */
export type ElicitationHandler = (
  userId: string,
  server: ServerDefinition,
  params: ElicitRequest["params"],
  signal: AbortSignal,
) => Promise<ElicitResult>;

/** Receives `notifications/message` log entries from servers. */
export type LoggingMessageHandler = (userId: string, server: ServerDefinition, params: LoggingMessageNotification["params"]) => void;

/** Live connection counts the admission hook decides on. */
export interface LiveCounts {
  /** This user's open or opening connections. */
  user: number;
  /** All users' open or opening connections. */
  total: number;
  /** Open or opening stdio (sandboxed) connections of all users. */
  sandboxes: number;
}

/**
 * The host's quotas in front of the engine: `call` takes a concurrent-call slot (returns its release)
 * and `connect` approves a new connection; both throw the host's own error when over a quota.
 */
export interface PoolAdmission {
  /**
   * Take a concurrent-call slot and return its release. A host whose counts live elsewhere (another
   * replica's share, in Redis) answers a promise, rejected when over the quota; a host that counts
   * in memory answers at once, so the call pays no extra await.
   */
  call(userId: string): (() => void) | Promise<() => void>;
  connect(userId: string, server: ServerDefinition, live: LiveCounts): void;
  /**
   * The instance's ceiling on live connections: at it, before `connect` is asked, the pool closes its
   * least recently used idle connection to make room (docs/limits.md#the-connection-ceiling). Default: none.
   */
  connectionCeiling?(): number;
  /** The same for sandboxed (stdio) processes: at it, an idle sandboxed connection makes room for a new one. Default: none. */
  sandboxCeiling?(): number;
}

/**
 * One finished MCP request that did work — a tool call, a resource read or a prompt get — for the
 * host's usage records. Sizes are UTF-8 bytes of the JSON sent (arguments) and received (result).
 */
export interface RequestEndEvent {
  userId: string;
  serverId: string;
  serverName: string;
  kind: "tool" | "resource" | "prompt";
  /** The tool's raw name, the resource's URI or the prompt's name. */
  name: string;
  durationMs: number;
  /** `tool_error`: the tool answered isError; `refused`: a quota refused it before it was sent. */
  outcome: "ok" | "tool_error" | "protocol_error" | "timeout" | "refused";
  bytesIn: number;
  bytesOut: number;
}

/** Options of an `McpPool`; every field is optional. */
export interface PoolOptions {
  /** Wraps stdio launches (the sandbox). Default: `unwrappedLaunch`. */
  launchWrapper?: LaunchWrapper;
  /**
   * fetch used by both HTTP transports (an SSRF guard plugs in here). A fetch with a `request` lane
   * (lib/net: GuardedFetch) carries Streamable HTTP's MCP requests on it. Default: the global fetch,
   * unguarded, with an unguarded lane (lib/mcp/default-fetch.ts).
   */
  fetch?: FetchLike;
  /** OAuth provider per (user, server). Default: none. */
  authProvider?: AuthProviderFactory;
  /** Time source and timers. Default: the real clock. */
  clock?: Clock;
  /** Log sink. Default: silent. */
  logger?: Logger;
  /** Close a connection unused this long (no call in flight). Default: 0 = never. */
  idleTimeoutMs?: number;
  /** Ping an HTTP connection idle this long, less up to 20 % jitter (lib/mcp/health-ping.ts). Default: 50000 ms; 0 = never. */
  pingIntervalMs?: number;
  /** Most health pings the pool sends per second, all connections together. Default: 100. */
  pingsPerSecond?: number;
  /** Largest message accepted on any wire. Default: 16 MiB (same as `limits.maxMessageBytes`). */
  maxMessageBytes?: number;
  /** Caps on what servers send (docs/limits.md). Default: `DEFAULT_ENGINE_LIMITS`. */
  limits?: Partial<EngineLimits>;
  /** SIGTERM → SIGKILL grace when stopping a stdio child. Default: 3000 ms. */
  killGraceMs?: number;
  /** Bytes of stderr kept per child. Default: 64 KiB. */
  stderrBytes?: number;
  /** Handles elicitation; when absent the client does not declare the capability. */
  onElicitation?: ElicitationHandler;
  /** The host's LLM for server-initiated sampling; when absent the client does not declare sampling. */
  onSampling?: SamplingProvider;
  /** The instance's ceiling on a sampling request's output tokens: no server's `max_tokens_cap` exceeds it. Default: 16384. */
  samplingMaxTokens?: number;
  /** Receives server log messages. */
  onLoggingMessage?: LoggingMessageHandler;
  /** Called whenever a status changes (for live UI). */
  onStatusChange?: (status: ServerStatus) => void;
  /**
   * Entries added to `params._meta` of each JSON-RPC request sent to a stdio server, read as it is
   * sent (the host's W3C trace context, SEP-414's `traceparent`/`tracestate`; HTTP requests get it
   * through `fetch`). Must be cheap and not throw. Default: none.
   */
  requestMeta?: () => Record<string, string> | undefined;
  /** Called after every tool call, resource read and prompt get (usage records); must not throw. Default: none. */
  onRequestEnd?: (event: RequestEndEvent) => void;
  /** Whether `userId` has a page watching statuses; new call figures are pushed only then. Default: always. */
  figuresWatched?: (userId: string) => boolean;
  /** Quotas on calls and connections. Default: none. */
  admission?: PoolAdmission;
  /** Longest a chat turn waits for servers still connecting (they join a later turn). Default: 10000 ms. */
  turnWaitMs?: number;
  /** clientInfo.version sent in initialize. Default: "0.1.0". */
  clientVersion?: string;
  /**
   * Where each stdio server runs when several processes serve the instance (lib/mcp/placement.ts).
   * Default: none, every stdio server starts in this process.
   */
  placement?: StdioPlacement;
}
