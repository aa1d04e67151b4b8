/**
 * The server form's flat text fields and their conversion to and from a server config (docs/configuration.md).
 * Pure, so the conversion is unit-tested apart from React.
 */
import type { ServerConfig } from "@/lib/mcp/config";

/** Every field the form edits, as text or booleans. */
export interface ServerFormValues {
  name: string;
  transport: "http" | "stdio";
  url: string;
  /** `secret_url`: the URL itself is a credential (stored encrypted, shown masked). */
  secretUrl: boolean;
  headers: string;
  oauth: boolean;
  oauthClientId: string;
  oauthClientSecret: string;
  oauthScope: string;
  command: string;
  args: string;
  env: string;
  network: "off" | "on" | "hosts";
  networkHosts: string;
  cwd: string;
  readOnlyPaths: string;
  enabled: boolean;
  timeout: string;
  maxTotalTimeout: string;
  connectTimeout: string;
  parallel: boolean;
  /** `protocol: "2025-11-25"`: held to the initialize handshake, never probed for 2026-07-28. */
  legacyProtocol: boolean;
  /** `credentials: shared`: every member's calls use the connecting owner/admin's credentials. */
  sharedCredentials: boolean;
  /** `tools.include` is set (an empty list means: no tools at all). */
  includeOn: boolean;
  include: string;
  /** `tools.exclude` is set. */
  excludeOn: boolean;
  exclude: string;
  resources: boolean;
  prompts: boolean;
  samplingEnabled: boolean;
  samplingModel: string;
  samplingMaxTokens: string;
  samplingTimeout: string;
  samplingMaxRpm: string;
  samplingAllowedModels: string;
  samplingMaxToolRounds: string;
  samplingLogLevel: string;
  /** `sampling.review`: the user sees and approves each request and its answer (default on). */
  samplingReview: boolean;
}

/** An empty form with the config defaults (docs/configuration.md). */
export const EMPTY_FORM: ServerFormValues = {
  name: "",
  transport: "http",
  url: "",
  secretUrl: false,
  headers: "",
  oauth: false,
  oauthClientId: "",
  oauthClientSecret: "",
  oauthScope: "",
  command: "",
  args: "",
  env: "",
  network: "off",
  networkHosts: "",
  cwd: "",
  readOnlyPaths: "",
  enabled: true,
  timeout: "",
  maxTotalTimeout: "",
  connectTimeout: "",
  parallel: false,
  legacyProtocol: false,
  sharedCredentials: false,
  includeOn: false,
  include: "",
  excludeOn: false,
  exclude: "",
  resources: true,
  prompts: true,
  samplingEnabled: true,
  samplingModel: "",
  samplingMaxTokens: "",
  samplingTimeout: "",
  samplingMaxRpm: "",
  samplingAllowedModels: "",
  samplingMaxToolRounds: "",
  samplingLogLevel: "",
  samplingReview: true,
};

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
const list = (text: string) =>
  text
    .split(/[,\n]/)
    .map((l) => l.trim())
    .filter(Boolean);

function pairs(text: string, separator: RegExp): Record<string, string> {
  const map: Record<string, string> = {};
  for (const line of lines(text)) {
    const match = separator.exec(line);
    if (!match) map[line] = "";
    else map[line.slice(0, match.index).trim()] = line.slice(match.index + match[0].length).trim();
  }
  return map;
}

// A number field left as typed when it isn't a number, so the API names the field and says why.
const num = (text: string): number | string | undefined =>
  text.trim() === "" ? undefined : Number.isNaN(Number(text)) ? text : Number(text);

/**
 * Build the config JSON the API takes. Keys left at their default are omitted, except those the
 * `original` config (an edit) spelled out with that default: an edit that changes nothing changes nothing.
 */
export function formToConfig(v: ServerFormValues, original?: ServerConfig): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined && value !== "" && !(typeof value === "object" && value && Object.keys(value).length === 0))
      config[key] = value;
  };
  if (v.transport === "http") {
    set("url", v.url.trim());
    if (v.secretUrl) config.secret_url = true;
    set("headers", pairs(v.headers, /:\s*/));
    if (v.oauth) config.auth = "oauth";
    const oauth: Record<string, string> = {};
    if (v.oauthClientId.trim()) oauth.client_id = v.oauthClientId.trim();
    if (v.oauthClientSecret) oauth.client_secret = v.oauthClientSecret;
    if (v.oauthScope.trim()) oauth.scope = v.oauthScope.trim();
    set("oauth", oauth);
  } else {
    set("command", v.command.trim());
    // Exactly as typed, one per line: an argument may be empty or carry spaces.
    set("args", v.args === "" ? [] : v.args.split("\n").map((line) => line.replace(/\r$/, "")));
    set("env", pairs(v.env, /=/));
    if (v.network === "on") config.network = true;
    if (v.network === "hosts") config.network = list(v.networkHosts);
    set("cwd", v.cwd.trim());
    set("read_only_paths", lines(v.readOnlyPaths));
  }
  if (!v.enabled) config.enabled = false;
  set("timeout", num(v.timeout));
  set("max_total_timeout", num(v.maxTotalTimeout));
  set("connect_timeout", num(v.connectTimeout));
  if (v.parallel) config.supports_parallel_tool_calls = true;
  if (v.legacyProtocol) config.protocol = "2025-11-25";
  if (v.sharedCredentials) config.credentials = "shared";
  const tools: Record<string, unknown> = {};
  if (v.includeOn) tools.include = list(v.include);
  if (v.excludeOn) tools.exclude = list(v.exclude);
  if (!v.resources) tools.resources = false;
  if (!v.prompts) tools.prompts = false;
  set("tools", tools);
  const sampling: Record<string, unknown> = {};
  if (!v.samplingEnabled) sampling.enabled = false;
  if (v.samplingModel.trim()) sampling.model = v.samplingModel.trim();
  for (const [key, text] of [
    ["max_tokens_cap", v.samplingMaxTokens],
    ["timeout", v.samplingTimeout],
    ["max_rpm", v.samplingMaxRpm],
    ["max_tool_rounds", v.samplingMaxToolRounds],
  ] as const) {
    const value = num(text);
    if (value !== undefined) sampling[key] = value;
  }
  if (list(v.samplingAllowedModels).length) sampling.allowed_models = list(v.samplingAllowedModels);
  if (v.samplingLogLevel) sampling.log_level = v.samplingLogLevel;
  if (!v.samplingReview) sampling.review = false;
  set("sampling", sampling);
  return original ? keepSpelledOutDefaults(config, original as Record<string, unknown>) : config;
}

// Keys whose default the form expresses by leaving them out, with that default.
const DEFAULTS: [string[], unknown][] = [
  [["enabled"], true],
  [["network"], false],
  [["supports_parallel_tool_calls"], false],
  [["protocol"], "auto"],
  [["secret_url"], false],
  [["credentials"], "per_member"],
  [["args"], []],
  [["env"], {}],
  [["headers"], {}],
  [["read_only_paths"], []],
  [["oauth"], {}],
  [["tools"], {}],
  [["tools", "resources"], true],
  [["tools", "prompts"], true],
  [["sampling"], {}],
  [["sampling", "enabled"], true],
  [["sampling", "review"], true],
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Put back each key the original spelled out with its default value that the form left out. */
function keepSpelledOutDefaults(config: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(config);
  for (const [path, fallback] of DEFAULTS) {
    const [head, leaf] = path;
    const before = leaf ? (original[head] as Record<string, unknown> | undefined)?.[leaf] : original[head];
    if (before === undefined || !same(before, fallback)) continue;
    if (!leaf) {
      if (out[head] === undefined) out[head] = structuredClone(before);
      continue;
    }
    const parent = (out[head] as Record<string, unknown> | undefined) ?? {};
    if (parent[leaf] === undefined) out[head] = { ...parent, [leaf]: before };
  }
  return out;
}

/** Fill the form from a stored (masked) config. */
export function configToForm(name: string, c: ServerConfig): ServerFormValues {
  const joinPairs = (map: Record<string, string> | undefined, sep: string) =>
    Object.entries(map ?? {})
      .map(([k, val]) => `${k}${sep}${val}`)
      .join("\n");
  const str = (value: unknown) => (value === undefined || value === null ? "" : String(value));
  return {
    ...EMPTY_FORM,
    name,
    transport: c.command !== undefined ? "stdio" : "http",
    url: str(c.url),
    secretUrl: c.secret_url === true,
    headers: joinPairs(c.headers, ": "),
    oauth: c.auth === "oauth",
    oauthClientId: str(c.oauth?.client_id),
    oauthClientSecret: str(c.oauth?.client_secret),
    oauthScope: str(c.oauth?.scope),
    command: str(c.command),
    args: (c.args ?? []).join("\n"),
    env: joinPairs(c.env, "="),
    network: c.network === true ? "on" : Array.isArray(c.network) ? "hosts" : "off",
    networkHosts: Array.isArray(c.network) ? c.network.join(", ") : "",
    cwd: str(c.cwd),
    readOnlyPaths: (c.read_only_paths ?? []).join("\n"),
    enabled: c.enabled ?? true,
    timeout: str(c.timeout),
    maxTotalTimeout: str(c.max_total_timeout),
    connectTimeout: str(c.connect_timeout),
    parallel: c.supports_parallel_tool_calls ?? false,
    legacyProtocol: c.protocol === "2025-11-25",
    sharedCredentials: c.credentials === "shared",
    includeOn: c.tools?.include !== undefined,
    include: (c.tools?.include ?? []).join(", "),
    excludeOn: c.tools?.exclude !== undefined,
    exclude: (c.tools?.exclude ?? []).join(", "),
    resources: c.tools?.resources ?? true,
    prompts: c.tools?.prompts ?? true,
    samplingEnabled: c.sampling?.enabled ?? true,
    samplingModel: str(c.sampling?.model),
    samplingMaxTokens: str(c.sampling?.max_tokens_cap),
    samplingTimeout: str(c.sampling?.timeout),
    samplingMaxRpm: str(c.sampling?.max_rpm),
    samplingAllowedModels: (c.sampling?.allowed_models ?? []).join(", "),
    samplingMaxToolRounds: str(c.sampling?.max_tool_rounds),
    samplingLogLevel: str(c.sampling?.log_level),
    samplingReview: c.sampling?.review ?? true,
  };
}

const FIELD_OF_PATH: Record<string, keyof ServerFormValues> = {
  name: "name",
  url: "url",
  secret_url: "secretUrl",
  headers: "headers",
  auth: "oauth",
  "oauth.client_id": "oauthClientId",
  "oauth.client_secret": "oauthClientSecret",
  "oauth.scope": "oauthScope",
  command: "command",
  args: "args",
  env: "env",
  network: "network",
  cwd: "cwd",
  read_only_paths: "readOnlyPaths",
  enabled: "enabled",
  timeout: "timeout",
  max_total_timeout: "maxTotalTimeout",
  connect_timeout: "connectTimeout",
  supports_parallel_tool_calls: "parallel",
  protocol: "legacyProtocol",
  credentials: "sharedCredentials",
  "tools.include": "include",
  "tools.exclude": "exclude",
  "tools.resources": "resources",
  "tools.prompts": "prompts",
  "sampling.enabled": "samplingEnabled",
  "sampling.model": "samplingModel",
  "sampling.max_tokens_cap": "samplingMaxTokens",
  "sampling.timeout": "samplingTimeout",
  "sampling.max_rpm": "samplingMaxRpm",
  "sampling.allowed_models": "samplingAllowedModels",
  "sampling.max_tool_rounds": "samplingMaxToolRounds",
  "sampling.log_level": "samplingLogLevel",
  "sampling.review": "samplingReview",
};

/** Which form field an API error `field` (e.g. `config.tools.include.0`) belongs to. */
export function formFieldOf(apiField: string | undefined): keyof ServerFormValues | undefined {
  if (!apiField) return undefined;
  const path = apiField.replace(/^config\.?/, "").split(".");
  for (let length = path.length; length > 0; length--) {
    const hit = FIELD_OF_PATH[path.slice(0, length).join(".")];
    if (hit) return hit;
  }
  return undefined;
}
