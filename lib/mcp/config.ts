/**
 * MCP server configuration (docs/configuration.md): one zod schema shared by the web API, the YAML
 * loader and the command line. Unknown keys are rejected; errors name the server and the key.
 */
import { z } from "zod";
import { parse as parseYaml } from "yaml";
import { brandError, isBrandedInstance } from "../error-brand";

/** Default per-call timeout in seconds (docs/configuration.md `timeout`). */
export const DEFAULT_TIMEOUT_S = 120;
/**
 * Default total ceiling of one tool call in seconds (docs/configuration.md `max_total_timeout`):
 * 15 minutes, or the call's own `timeout` when that is longer, so no config gets cut shorter than before.
 */
export const DEFAULT_MAX_TOTAL_TIMEOUT_S = 15 * 60;
/** Default connect + discovery timeout in seconds (docs/configuration.md `connect_timeout`). */
export const DEFAULT_CONNECT_TIMEOUT_S = 60;

/** Server names become the `{server}` part of tool names, so they are kept short and plain. */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$/;

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

/** A YAML-friendly boolean: true/false, "yes"/"no", "on"/"off", 1/0. */
const boolLike = z.union([z.boolean(), z.string(), z.number()]).transform((value, ctx) => {
  if (typeof value === "boolean") return value;
  const word = String(value).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  ctx.addIssue({ code: "custom", message: `expected a boolean (true/false, yes/no, on/off), got ${JSON.stringify(value)}` });
  return z.NEVER;
});

/** A tool filter: one raw tool name or a list of them. */
const nameList = z.union([z.string().min(1), z.array(z.string().min(1))]).transform((value) => (Array.isArray(value) ? value : [value]));

const stringMap = z.record(z.string(), z.string());
const positiveSeconds = z
  .number()
  .positive()
  .max(24 * 3600);

const toolsSchema = z
  .object({
    include: nameList.optional(),
    exclude: nameList.optional(),
    resources: boolLike.optional(),
    prompts: boolLike.optional(),
  })
  .strict();

/** Policy for server-initiated LLM requests (docs/configuration.md#sampling). */
export const samplingSchema = z
  .object({
    enabled: boolLike.optional(),
    model: z.string().min(1).optional(),
    max_tokens_cap: z.number().int().positive().optional(),
    timeout: positiveSeconds.optional(),
    max_rpm: z.number().int().nonnegative().optional(),
    allowed_models: z.array(z.string().min(1)).optional(),
    max_tool_rounds: z.number().int().nonnegative().optional(),
    log_level: z.enum(["debug", "info", "warning", "error"]).optional(),
    /** Show each request and its answer to the user for approval (default true). */
    review: boolLike.optional(),
  })
  .strict();

/** Pre-registered OAuth client for servers whose authorization server has no dynamic registration. */
const oauthSchema = z
  .object({
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
  })
  .strict();

/** Network access of a sandboxed stdio server: off, on, or only the listed hosts. */
const networkSchema = z.union([z.boolean(), z.array(z.string().min(1))]);

const baseShape = {
  // stdio
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  network: networkSchema.optional(),
  cwd: z.string().min(1).optional(),
  read_only_paths: z.array(z.string().min(1)).optional(),
  // HTTP
  url: z.string().min(1).optional(),
  /** The URL itself is a credential (a token in its path or query): stored encrypted, shown masked. */
  secret_url: boolLike.optional(),
  headers: stringMap.optional(),
  auth: z.literal("oauth").optional(),
  oauth: oauthSchema.optional(),
  // both
  enabled: boolLike.optional(),
  timeout: positiveSeconds.optional(),
  /** A tool call's total ceiling however much progress it reports (seconds). */
  max_total_timeout: positiveSeconds.optional(),
  connect_timeout: positiveSeconds.optional(),
  supports_parallel_tool_calls: boolLike.optional(),
  tools: toolsSchema.optional(),
  sampling: samplingSchema.optional(),
  /** Whose credentials calls use: each member's own (`per_member`, default) or one admin's (`shared`). */
  credentials: z.enum(["per_member", "shared"]).optional(),
  /** The protocol: negotiated (`auto`, default), or held to the 2025-11-25 handshake (docs/protocol.md#holding-a-server-to-2025-11-25). */
  protocol: z.enum(["auto", "2025-11-25"]).optional(),
};

/**
 * Request headers a config may not set (docs/configuration.md, `headers`): hop-by-hop and routing
 * headers, which would send the request to another virtual host or desynchronise a kept-alive
 * connection, and the MCP transport's own session and version headers. Every `proxy-*` too.
 */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "mcp-session-id",
  "mcp-protocol-version",
]);

/** Whether a server config may not set the request header `name` (case-insensitive). */
export function isReservedHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return RESERVED_HEADERS.has(lower) || lower.startsWith("proxy-");
}

/**
 * The headers of a config a transport sends: reserved ones are dropped whatever the stored config
 * holds (validation refuses them, but a definition may come from elsewhere: a file, an old row).
 */
export function sendableHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (!isReservedHeader(name)) out[name] = value;
  return out;
}

const STDIO_ONLY = ["args", "env", "network", "cwd", "read_only_paths"] as const;
const HTTP_ONLY = ["headers", "auth", "oauth", "secret_url"] as const;

/** The config of one MCP server as accepted from users (docs/configuration.md keys, snake_case). */
export const serverConfigSchema = z
  .object(baseShape)
  .strict()
  .superRefine((config, ctx) => {
    const hasCommand = config.command !== undefined;
    const hasUrl = config.url !== undefined;
    if (hasCommand && hasUrl) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "give either `command` (stdio) or `url` (HTTP), not both" });
      return;
    }
    if (!hasCommand && !hasUrl) {
      ctx.addIssue({ code: "custom", path: ["command"], message: "one of `command` (stdio) or `url` (HTTP) is required" });
      return;
    }
    const foreign = hasCommand ? HTTP_ONLY : STDIO_ONLY;
    for (const key of foreign) {
      if (config[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `\`${key}\` applies only to ${hasCommand ? "HTTP" : "stdio"} servers` });
      }
    }
    if (hasUrl) {
      const url = safeParseUrl(config.url!);
      if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
        ctx.addIssue({ code: "custom", path: ["url"], message: "must be an absolute http:// or https:// URL" });
      } else if (url.username || url.password) {
        ctx.addIssue({ code: "custom", path: ["url"], message: "must not carry credentials; use `headers` instead" });
      }
    }
    for (const name of Object.keys(config.headers ?? {})) {
      if (isReservedHeader(name)) {
        ctx.addIssue({
          code: "custom",
          path: ["headers", name],
          message: `\`${name}\` cannot be set: Switchboard sets this header itself (hop-by-hop, routing and MCP session headers are refused)`,
        });
      }
    }
  });

/** Validated input config. */
export type ServerConfigInput = z.input<typeof serverConfigSchema>;
/** Validated config with bool-likes and tool filters normalised, defaults not yet applied. */
export type ServerConfig = z.output<typeof serverConfigSchema>;
/** The transport a config selects. */
export type TransportKind = "stdio" | "http";

/** A server as the engine sees it: a stable id, its name (the tool prefix) and its config. */
export interface ServerDefinition {
  id: string;
  name: string;
  config: ServerConfig;
}

/** A config problem, naming the server and the key (dot path) at fault. */
export class ConfigError extends Error {
  readonly server: string | undefined;
  readonly field: string;
  /** The brand `instanceof` checks, which holds across the app's bundles (lib/error-brand.ts). */
  static readonly brand: string = "switchboard.ConfigError";
  static [Symbol.hasInstance](value: unknown): value is ConfigError {
    return isBrandedInstance(this, value);
  }
  constructor(server: string | undefined, field: string, message: string) {
    super(`${server ? `server "${server}": ` : ""}${field ? `\`${field}\`: ` : ""}${message}`);
    brandError(this, new.target);
    this.name = "ConfigError";
    this.server = server;
    this.field = field;
  }
}

/** Validate one server config; throws ConfigError naming the first bad key. */
export function parseServerConfig(input: unknown, server?: string): ServerConfig {
  const result = serverConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ConfigError(server, describePath(issue), describeIssue(issue));
}

/** Validate a server name; throws ConfigError on `name`. */
export function assertServerName(name: unknown): string {
  if (typeof name !== "string" || !SERVER_NAME_PATTERN.test(name)) {
    throw new ConfigError(
      typeof name === "string" ? name : undefined,
      "name",
      "must start with a letter or digit and contain only letters, digits, `_`, `-` or `.` (at most 48 characters)",
    );
  }
  return name;
}

/** Which transport a validated config selects. */
export function transportOf(config: ServerConfig): TransportKind {
  return config.command !== undefined ? "stdio" : "http";
}

/** Effective settings after the defaults of docs/configuration.md are applied. */
export interface EffectiveSettings {
  enabled: boolean;
  timeoutMs: number;
  /** A tool call's total ceiling: progress notifications restart `timeoutMs`, never this. */
  maxTotalTimeoutMs: number;
  connectTimeoutMs: number;
  parallel: boolean;
  resources: boolean;
  prompts: boolean;
}

/** Apply the defaults of docs/configuration.md to a validated config. */
export function effectiveSettings(config: ServerConfig): EffectiveSettings {
  return {
    enabled: config.enabled ?? true,
    timeoutMs: (config.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
    maxTotalTimeoutMs: (config.max_total_timeout ?? Math.max(DEFAULT_MAX_TOTAL_TIMEOUT_S, config.timeout ?? DEFAULT_TIMEOUT_S)) * 1000,
    connectTimeoutMs: (config.connect_timeout ?? DEFAULT_CONNECT_TIMEOUT_S) * 1000,
    parallel: config.supports_parallel_tool_calls ?? false,
    resources: config.tools?.resources ?? true,
    prompts: config.tools?.prompts ?? true,
  };
}

/**
 * Parse a YAML document with a top-level `mcp_servers:` map into server definitions.
 * Ids are the server names (a file has no database ids).
 */
export function parseServersYaml(text: string): ServerDefinition[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new ConfigError(undefined, "", `invalid YAML: ${(error as Error).message}`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
    throw new ConfigError(undefined, "mcp_servers", "the file must be a map with a top-level `mcp_servers:` key");
  }
  const unknownTop = Object.keys(doc).filter((key) => key !== "mcp_servers");
  if (unknownTop.length) throw new ConfigError(undefined, unknownTop[0], "unknown top-level key (expected only `mcp_servers`)");
  const servers = (doc as { mcp_servers?: unknown }).mcp_servers ?? {};
  if (typeof servers !== "object" || Array.isArray(servers) || servers === null) {
    throw new ConfigError(undefined, "mcp_servers", "must be a map of server name to config");
  }
  return Object.entries(servers).map(([name, config]) => ({
    id: assertServerName(name),
    name,
    config: parseServerConfig(config ?? {}, name),
  }));
}

function describePath(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    return [...issue.path, issue.keys[0]].join(".");
  }
  return issue.path.map(String).join(".");
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "unrecognized_keys":
      return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `\`${k}\``).join(", ")}`;
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_union":
      return "has the wrong type";
    default:
      return issue.message;
  }
}

function safeParseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null; // an unparsable URL is reported by the caller as a field error
  }
}
