/**
 * A JSON-schema check for the tool forms that runs without code generation: the app's
 * Content-Security-Policy forbids `eval`, which ajv (the form library's own validator) needs. It
 * checks what a person filling a form gets wrong (required fields, types, enums, constants, nested
 * objects and array items); the server validates the arguments in full when the tool is called.
 */
import type { RJSFSchema, RJSFValidationError, ValidationData, ValidatorType } from "@rjsf/utils";

type Schema = RJSFSchema & Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(expected: unknown, value: unknown): boolean {
  const types = Array.isArray(expected) ? expected : [expected];
  const actual = typeOf(value);
  return types.some((t) => t === actual || (t === "number" && actual === "integer"));
}

/** Problems of `value` against `schema`, each with its property path (`.a.b`). */
export function schemaProblems(schema: Schema | boolean | undefined, value: unknown, path = ""): RJSFValidationError[] {
  if (schema === undefined || schema === true) return [];
  if (schema === false) return [{ property: path, message: "is not allowed", stack: `${path || "value"} is not allowed` }];
  const problem = (message: string, name: string): RJSFValidationError => ({
    name,
    property: path,
    message,
    stack: `${path || "value"} ${message}`,
  });
  if (value === undefined) return [];
  if (schema.type !== undefined && !typeMatches(schema.type, value))
    return [problem(`must be ${[schema.type].flat().join(" or ")}`, "type")];
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) {
    return [problem("must be one of the listed values", "enum")];
  }
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value))
    return [problem("must be the fixed value", "const")];
  const out: RJSFValidationError[] = [];
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const name of (schema.required as string[] | undefined) ?? []) {
      if (object[name] === undefined)
        out.push({ name: "required", property: `${path}.${name}`, message: "is required", stack: `${path}.${name} is required` });
    }
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [name, child] of Object.entries(properties)) out.push(...schemaProblems(child, object[name], `${path}.${name}`));
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === "object" && !Array.isArray(schema.items)) {
    for (const [index, item] of value.entries()) out.push(...schemaProblems(schema.items as Schema, item, `${path}.${index}`));
  }
  return out;
}

/** The form library's validator interface over `schemaProblems`. */
export const formValidator: ValidatorType = {
  validateFormData(formData, schema): ValidationData<unknown> {
    const errors = schemaProblems(schema as Schema, formData ?? {});
    const errorSchema: Record<string, unknown> = {};
    for (const error of errors) {
      let node = errorSchema;
      for (const key of (error.property ?? "").split(".").filter(Boolean)) {
        node[key] ??= {};
        node = node[key] as Record<string, unknown>;
      }
      node.__errors = [...((node.__errors as string[]) ?? []), error.message];
    }
    return { errors, errorSchema: errorSchema as ValidationData<unknown>["errorSchema"] };
  },
  isValid(schema, formData) {
    return schemaProblems(schema as Schema, formData).length === 0;
  },
  rawValidation(schema, formData) {
    return { errors: schemaProblems(schema as Schema, formData) as never[] };
  },
};
