/**
 * The MCP engine's main surface: one pool of connections per process, keyed by (user, server).
 * Callers take the pool and its types from here; a few take one part directly where that is all
 * they need (the config schema, which db/ uses too, the hook types, the sandbox, errors, the logger).
 */
export { McpPool } from "./pool";
export type { ServerSession } from "./session";
export { getPool, closeGlobalPool, existingPool } from "./global-pool";
export { EngineError, isEngineError, type ErrorCode } from "./errors";
export type {
  RegisteredTool,
  RegisteredKind,
  ToolCallOutcome,
  CallOptions,
  ServerState,
  ServerStatus,
  TransportUsed,
  CallMetrics,
  PoolOptions,
  PoolAdmission,
  LiveCounts,
  AuthProviderFactory,
  ElicitationHandler,
  LoggingMessageHandler,
} from "./types";
export type { Clock } from "./clock";
export { engineLimitsFromEnv, DEFAULT_ENGINE_LIMITS, type EngineLimits, type LimitCounters } from "./limits";
export type { Logger } from "./logger";
export {
  parseServerConfig,
  parseServersYaml,
  effectiveSettings,
  transportOf,
  ConfigError,
  type ServerConfig,
  type ServerDefinition,
} from "./config";
export { unwrappedLaunch, LaunchRefusedError, type LaunchWrapper, type StdioLaunch, type LaunchContext } from "./launch";
export {
  SamplingGate,
  samplingPolicy,
  samplingMaxTokensFromEnv,
  SAMPLING_DEFAULTS,
  type SamplingAudit,
  type SamplingPolicy,
  type SamplingProvider,
  type SamplingRequest,
  type SamplingResponse,
} from "./sampling";
export { rootsOf } from "./roots";
export type { ServerLogEntry } from "./server-log";
export { recordsStepUp, type StepUpRecorder } from "./step-up";
export { MCP_APPS_EXTENSION, MCP_APP_MIME_TYPE, toolUiOf, visibleToModel, type ToolUi, type ToolVisibility } from "./apps";
