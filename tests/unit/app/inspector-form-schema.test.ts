/**
 * The inspector's tool forms: schemas reach the form library without their `$schema` draft, and
 * are checked without code generation (the app's CSP forbids eval, which ajv needs).
 */
import { describe, expect, it } from "vitest";
import { formSchema } from "@/app/_components/inspector/form-schema";
import { formValidator, schemaProblems } from "@/app/_components/inspector/form-validator";

const sum = formSchema({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    a: { type: "number" },
    b: { type: "integer" },
    mode: { enum: ["x", "y"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["a", "b"],
});

describe("formSchema", () => {
  it("drops $schema and treats a missing schema as an empty object", () => {
    expect(sum).not.toHaveProperty("$schema");
    expect(formSchema(undefined)).toEqual({ type: "object" });
  });
});

describe("formValidator (no eval)", () => {
  it("accepts valid arguments", () => {
    expect(formValidator.validateFormData({ a: 1.5, b: 2, mode: "x", tags: ["t"] }, sum).errors).toEqual([]);
    expect(formValidator.isValid(sum, { a: 1, b: 2 }, sum)).toBe(true);
  });

  it.each([
    ["a missing required field", { a: 1 }, ".b", "required"],
    ["a wrong type", { a: "1", b: 2 }, ".a", "type"],
    ["a fraction for an integer", { a: 1, b: 2.5 }, ".b", "type"],
    ["a value outside the enum", { a: 1, b: 2, mode: "z" }, ".mode", "enum"],
    ["a wrong array item", { a: 1, b: 2, tags: [3] }, ".tags.0", "type"],
  ])("reports %s at its field", (_label, data, property, name) => {
    const { errors, errorSchema } = formValidator.validateFormData(data, sum);
    expect(errors).toEqual([expect.objectContaining({ property, name })]);
    const first = property.split(".").filter(Boolean)[0];
    expect((errorSchema as Record<string, { __errors?: string[] }>)[first]).toBeDefined();
  });

  it("refuses everything for a false schema and nothing for a true one", () => {
    expect(schemaProblems(false, 1)).toHaveLength(1);
    expect(schemaProblems(true, 1)).toEqual([]);
  });
});
