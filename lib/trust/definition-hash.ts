/**
 * A tool's definition as pinned (rug-pull protection): name, title, description, input and output
 * schema, annotations, MCP App link — exactly the fields that change what the model is told or what a person
 * approved. The hash is over canonical JSON (sorted keys), so key order and JSON formatting do
 * not matter while any change of content does.
 */
import { createHash } from "node:crypto";
import type { ToolAnnotations } from "@modelcontextprotocol/client";

/** The pinned fields of one server tool. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** The tool's MCP App link: a changed app (or who may call the tool) is reviewed like any change. */
  ui?: { resourceUri: string; visibility?: string[] };
}

/** The pinned fields of a listed tool (extra fields, such as the registered name, are left out). */
export function definitionOf(tool: ToolDefinition & { rawName?: string }): ToolDefinition {
  const def: ToolDefinition = { name: tool.rawName ?? tool.name };
  if (tool.title !== undefined) def.title = tool.title;
  if (tool.description !== undefined) def.description = tool.description;
  if (tool.inputSchema !== undefined) def.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) def.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) def.annotations = tool.annotations;
  if (tool.ui !== undefined) def.ui = tool.ui;
  return def;
}

/** JSON with object keys sorted at every level and no insignificant whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

// A listed tool is one object from its listing until the server lists again (a new object), and
// nothing changes it meanwhile: hashing it once per listing, not once per call or turn, is enough.
const hashes = new WeakMap<object, string>();

/** SHA-256 (hex) of the canonical JSON of a tool's pinned definition. */
export function definitionHash(tool: ToolDefinition & { rawName?: string }): string {
  let hash = hashes.get(tool);
  if (hash === undefined) {
    hash = createHash("sha256")
      .update(canonicalJson(definitionOf(tool)))
      .digest("hex");
    hashes.set(tool, hash);
  }
  return hash;
}
