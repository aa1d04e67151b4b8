/** Workspace URL names: plain, unique, never a reserved word. */
import { describe, expect, it } from "vitest";
import { slugify, uniqueSlug } from "@/lib/workspaces/slug";

describe("slugify", () => {
  it.each([
    ["Acme", "acme"],
    ["Acme Corp!", "acme-corp"],
    ["  Über   Team  ", "uber-team"],
    ["R&D / Ops", "r-d-ops"],
    ["!!!", ""],
    ["a".repeat(60), "a".repeat(40)],
  ])("%j → %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});

describe("uniqueSlug", () => {
  it("appends -2, -3 … while taken", async () => {
    const taken = new Set(["acme", "acme-2"]);
    expect(await uniqueSlug("Acme", (s) => taken.has(s))).toBe("acme-3");
  });

  it("never hands out a reserved word or an empty slug", async () => {
    expect(await uniqueSlug("Personal", () => false)).toBe("personal-2");
    expect(await uniqueSlug("Admin", () => false)).toBe("admin-2");
    expect(await uniqueSlug("???", () => false)).toBe("workspace");
  });
});
