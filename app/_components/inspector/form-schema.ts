import type { RJSFSchema } from "@rjsf/utils";

/**
 * The schema as the form library reads it. `$schema` is dropped: servers declare drafts (2020-12
 * from zod 4) the default ajv instance does not load, which would stop every submit.
 */
export function formSchema(schema: Record<string, unknown> | undefined): RJSFSchema {
  const { $schema: _declared, ...rest } = schema ?? { type: "object" };
  return rest as RJSFSchema;
}
