/**
 * Command-line argument handling: flags, `key=value` tool arguments coerced by the tool's JSON
 * schema, and `server.tool` targets.
 */

/** Parsed command line: positional words and `--flag value` options. */
export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string>;
}

const VALUE_FLAGS = new Set(["config", "json", "data-dir", "inputs", "format", "from", "to"]);

/** Split argv into positionals and `--config FILE` / `--json '{…}'` style flags. */
export function parseArgv(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word.startsWith("--")) {
      const [name, inline] = word.slice(2).split(/=(.*)/s, 2);
      if (inline !== undefined) flags[name] = inline;
      else if (VALUE_FLAGS.has(name)) {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        flags[name] = argv[++i];
      } else flags[name] = "true";
    } else positional.push(word);
  }
  return { positional, flags };
}

/** A mistake in how the command was called (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** `server.tool` → its two parts; the server is everything before the first dot. */
export function splitTarget(target: string | undefined): { server: string; tool: string } {
  const dot = target?.indexOf(".") ?? -1;
  if (!target || dot <= 0 || dot === target.length - 1) throw new UsageError("name the tool as <server>.<tool>");
  return { server: target.slice(0, dot), tool: target.slice(dot + 1) };
}

type Schema = { properties?: Record<string, { type?: string | string[] }> };

/**
 * Turn `key=value` words into arguments. A value is kept as text when the schema says the
 * property is a string; otherwise JSON is tried first (numbers, booleans, objects), then text.
 */
export function parseKeyValues(words: string[], schema: Schema = {}): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new UsageError(`expected key=value, got "${word}"`);
    const key = word.slice(0, eq);
    const text = word.slice(eq + 1);
    const type = schema.properties?.[key]?.type;
    const wantsString = type === "string" || (Array.isArray(type) && type.length === 1 && type[0] === "string");
    args[key] = wantsString ? text : parseLoose(text);
  }
  return args;
}

function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: the text itself is the value
  }
}

/** Merge `--json '{…}'` (an object) under the key=value arguments. */
export function jsonArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--json is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new UsageError("--json must be a JSON object");
  return value as Record<string, unknown>;
}
