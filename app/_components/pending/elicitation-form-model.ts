/**
 * Turning an elicitation's `requestedSchema` (flat object of primitives, per the MCP spec) into
 * form fields with defaults pre-filled, and the typed answer back.
 */

/** One form field derived from a schema property. */
export interface ElicitField {
  name: string;
  label: string;
  description?: string;
  kind: "text" | "email" | "url" | "date" | "datetime" | "number" | "integer" | "boolean" | "select" | "multi";
  options?: { value: string; label: string }[];
  required: boolean;
  initial: string | boolean | string[];
}

type Property = {
  type?: string;
  title?: string;
  description?: string;
  format?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const: unknown; title?: string }[];
  items?: { enum?: unknown[]; anyOf?: { const: unknown; title?: string }[] };
};

function optionsOf(p: Property): { value: string; label: string }[] | undefined {
  if (p.enum) return p.enum.map((v, i) => ({ value: String(v), label: p.enumNames?.[i] ?? String(v) }));
  if (p.oneOf) return p.oneOf.map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
  return undefined;
}

/** The fields of a requested schema, in declaration order, defaults pre-filled. */
export function fieldsOf(schema: Record<string, unknown> | undefined): ElicitField[] {
  const properties = (schema?.properties ?? {}) as Record<string, Property>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, p]) => {
    const base = { name, label: p.title ?? name, description: p.description, required: required.has(name) };
    if (p.type === "boolean") return { ...base, kind: "boolean", initial: p.default === true };
    if (p.type === "array") {
      const options = (p.items?.enum ?? [])
        .map((v) => ({ value: String(v), label: String(v) }))
        .concat((p.items?.anyOf ?? []).map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) })));
      return { ...base, kind: "multi", options, initial: Array.isArray(p.default) ? p.default.map(String) : [] };
    }
    const options = optionsOf(p);
    if (options) return { ...base, kind: "select", options, initial: p.default !== undefined ? String(p.default) : "" };
    const kind =
      p.type === "number"
        ? "number"
        : p.type === "integer"
          ? "integer"
          : p.format === "email"
            ? "email"
            : p.format === "uri"
              ? "url"
              : p.format === "date"
                ? "date"
                : p.format === "date-time"
                  ? "datetime"
                  : "text";
    return { ...base, kind, initial: p.default !== undefined ? String(p.default) : "" } as ElicitField;
  });
}

/** The typed `content` of an accepted answer: numbers as numbers, empty optional fields left out. */
export function contentOf(
  fields: ElicitField[],
  values: Record<string, string | boolean | string[]>,
): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "boolean") content[field.name] = value === true;
    else if (field.kind === "multi") content[field.name] = (value as string[]) ?? [];
    else if (value === "" || value === undefined) continue;
    else if (field.kind === "number") content[field.name] = Number(value);
    else if (field.kind === "integer") content[field.name] = Math.trunc(Number(value));
    else content[field.name] = String(value);
  }
  return content;
}
