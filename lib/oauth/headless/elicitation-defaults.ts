/**
 * Answers for form elicitations without a human: each field's schema `default` (SEP-1034), so a
 * headless client accepts exactly what the server proposed.
 */

/** The content made of the `default` of every property of a requested schema. */
export function elicitationDefaults(schema: unknown): Record<string, string | number | boolean | string[]> {
  const properties = (schema as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties ?? {};
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = property?.default;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") content[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string")) content[name] = value;
  }
  return content;
}
