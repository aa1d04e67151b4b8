/**
 * Server configs from other MCP clients, read into ours (docs/workbench.md#import-and-export):
 * Claude Desktop / Cursor `{"mcpServers": {...}}`, VS Code `.vscode/mcp.json` (`servers` plus
 * `inputs`, whose `${input:id}` references are secrets the person types in), and the command line's
 * YAML `mcp_servers:`. Pure: every entry comes back with its validation result, nothing is saved.
 */
import { parse as parseYaml } from "yaml";
import { ConfigError, assertServerName, parseServerConfig, type ServerConfig } from "../mcp/config";

/** Which format the text was read as. */
export type ImportFormat = "mcpServers" | "vscode" | "mcp_servers";

/** One server of an import, as the preview shows it (secrets are masked later, by the caller). */
export interface ImportEntry {
  name: string;
  /** Our config (validated when `valid`); the raw mapping otherwise. */
  config: Record<string, unknown>;
  valid: boolean;
  /** What is wrong, naming the key (`server "x": \`args\`: …`). */
  error?: string;
  /** A stdio entry runs a program on the host: it needs an instance administrator's explicit consent. */
  needsConsent: boolean;
  /** VS Code `inputs` this entry uses (`${input:id}`), each a secret the person types in. */
  inputs: { id: string; description: string }[];
}

/** A whole import: the format recognised and each entry. */
export interface ImportPreview {
  format: ImportFormat;
  servers: ImportEntry[];
}

/** The text as a whole cannot be read (not JSON/YAML, or none of the known shapes). */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportError";
  }
}

// The keys other clients write per server. `type`/`transport` only choose the wire, which our
// config infers from `command` or `url`; anything else is refused by name rather than dropped.
const CLIENT_KEYS = new Set(["command", "args", "env", "url", "headers", "type", "transport", "disabled", "cwd"]);
const CLIENT_TYPES = new Set(["stdio", "http", "sse", "streamable-http", "streamableHttp"]);
const INPUT_REF = /\$\{input:([^}]+)\}/g;

/** Read an import text (JSON or YAML) into a preview. `inputs` fills VS Code `${input:id}` references. */
export function parseImport(text: string, inputs: Record<string, string> = {}): ImportPreview {
  let doc: unknown;
  try {
    // YAML 1.2 reads JSON too; VS Code's files may carry comments, which YAML reads as well only
    // in its own `#` form, so `//` comments are cut first.
    doc = parseYaml(stripJsonComments(text));
  } catch (error) {
    throw new ImportError(`The text is neither JSON nor YAML: ${(error as Error).message}`);
  }
  if (!isMap(doc)) throw new ImportError("Expected an object with `mcpServers`, `servers` (VS Code) or `mcp_servers`.");
  if (isMap(doc.mcpServers)) return { format: "mcpServers", servers: Object.entries(doc.mcpServers).map(([n, c]) => fromClient(n, c, {})) };
  if (isMap(doc.servers)) {
    const declared = vscodeInputs(doc.inputs);
    return { format: "vscode", servers: Object.entries(doc.servers).map(([n, c]) => fromClient(n, c, declared, inputs)) };
  }
  if (isMap(doc.mcp_servers))
    return { format: "mcp_servers", servers: Object.entries(doc.mcp_servers).map(([n, c]) => ours(n, c ?? {}, inputs)) };
  throw new ImportError("Expected an object with `mcpServers`, `servers` (VS Code) or `mcp_servers`.");
}

/** Our own keys: validated as they are, `${input:id}` placeholders (an export's secrets) filled in. */
function ours(name: string, raw: unknown, values: Record<string, string>): ImportEntry {
  if (!isMap(raw)) return validated(name, {}, "must be a map of config keys", []);
  return withInputs(name, raw, {}, values);
}

/** A Claude Desktop / Cursor / VS Code entry: mapped key by key onto ours. */
function fromClient(name: string, raw: unknown, declared: Record<string, string>, values: Record<string, string> = {}): ImportEntry {
  if (!isMap(raw)) return validated(name, {}, "must be an object", []);
  const unknown = Object.keys(raw).find((key) => !CLIENT_KEYS.has(key));
  if (unknown) return validated(name, raw, `\`${unknown}\`: unknown key (expected command, args, env, url, headers, type)`, []);
  if (raw.type !== undefined && !CLIENT_TYPES.has(String(raw.type))) {
    return validated(name, raw, `\`type\`: "${String(raw.type)}" is not stdio, http or sse`, []);
  }
  const config: Record<string, unknown> = {};
  for (const key of ["command", "args", "env", "url", "headers", "cwd"] as const) if (raw[key] !== undefined) config[key] = raw[key];
  if (raw.disabled === true) config.enabled = false;
  return withInputs(name, config, declared, values);
}

/** Fill `${input:id}` references from `values`; an entry with one left unfilled is not valid yet. */
function withInputs(name: string, config: Record<string, unknown>, declared: Record<string, string>, values: Record<string, string>) {
  const used = new Set<string>();
  const filled = fillInputs(config, values, used) as Record<string, unknown>;
  const inputs = [...used].map((id) => ({ id, description: declared[id] ?? id }));
  const missing = [...used].filter((id) => values[id] === undefined);
  if (missing.length > 0) {
    return { ...validated(name, config, undefined, inputs), valid: false, error: `needs a value for input "${missing[0]}"` };
  }
  return validated(name, filled, undefined, inputs);
}

function validated(name: string, config: Record<string, unknown>, problem: string | undefined, inputs: ImportEntry["inputs"]): ImportEntry {
  const needsConsent = typeof config.command === "string";
  if (problem) return { name, config, valid: false, error: `server "${name}": ${problem}`, needsConsent, inputs };
  try {
    assertServerName(name);
    const parsed: ServerConfig = parseServerConfig(config, name);
    return { name, config: parsed as Record<string, unknown>, valid: true, needsConsent, inputs };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { name, config, valid: false, error: error.message, needsConsent, inputs };
  }
}

/** VS Code `inputs`: `[{id, description, type: "promptString", password}]` → id → description. */
function vscodeInputs(raw: unknown): Record<string, string> {
  if (!Array.isArray(raw)) return {};
  const out: Record<string, string> = {};
  for (const input of raw) if (isMap(input) && typeof input.id === "string") out[input.id] = String(input.description ?? input.id);
  return out;
}

/** Replace `${input:id}` in every string (recording the ids used); unknown ids stay as written. */
function fillInputs(value: unknown, values: Record<string, string>, used: Set<string>): unknown {
  if (typeof value === "string") {
    return value.replace(INPUT_REF, (whole, id: string) => {
      used.add(id);
      return values[id] ?? whole;
    });
  }
  if (Array.isArray(value)) return value.map((item) => fillInputs(item, values, used));
  if (isMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillInputs(v, values, used)]));
  return value;
}

/** Remove `//` line and block comments outside strings (VS Code's JSON with comments). */
function stripJsonComments(text: string): string {
  if (!/^\s*[{[]/.test(text)) return text;
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else out += c;
  }
  return out;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
