/**
 * Limits on what one server may send (docs/limits.md): byte caps while streaming, JSON shape
 * bounds, notification and server-request rates, the stream reopen budget, discovery bounds.
 */
export { cappedFetch } from "./capped-fetch";
export { ConnectionGuard, type LimitCounters } from "./connection-guard";
export { checkJsonShape, describeRefusal, JsonShapeScanner } from "./json-shape";
export { LimitedStdioTransport, LimitedTransport } from "./limited-transport";
export { DEFAULT_ENGINE_LIMITS, engineLimitsFromEnv, LIMIT_ENV, raiseHint, resolveEngineLimits, type EngineLimits } from "./settings";
