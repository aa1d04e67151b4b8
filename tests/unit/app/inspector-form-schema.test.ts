/** The inspector hands tool schemas to the form library without the `$schema` draft ajv would refuse. */
import validator from "@rjsf/validator-ajv8";
import { describe, expect, it } from "vitest";
import { formSchema } from "@/app/_components/inspector/form-schema";

describe("formSchema", () => {
  it("drops $schema so a 2020-12 schema validates instead of failing every submit", () => {
    const declared = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { a: { type: "number" } },
      required: ["a"],
    };
    const schema = formSchema(declared);
    expect(schema).not.toHaveProperty("$schema");
    expect(validator.validateFormData({ a: 1 }, schema).errors).toEqual([]);
    expect(validator.validateFormData({}, schema).errors.map((e) => e.name)).toEqual(["required"]);
  });

  it("treats a missing schema as an empty object", () => {
    expect(formSchema(undefined)).toEqual({ type: "object" });
  });
});
