/** The server form keeps a server's credential mode across an edit (dropping it would silently un-share it). */
import { describe, expect, it } from "vitest";
import { configToForm, formToConfig } from "@/app/_components/servers/form-model";

describe("server form credential mode", () => {
  it("round-trips credentials: shared", () => {
    const config = { url: "https://mcp.example/mcp", auth: "oauth" as const, credentials: "shared" as const };
    const values = configToForm("team", config);
    expect(values.sharedCredentials).toBe(true);
    expect(formToConfig(values)).toMatchObject({ credentials: "shared" });
  });

  it("leaves per_member (the default) out of the config", () => {
    const values = configToForm("mine", { url: "https://mcp.example/mcp" });
    expect(values.sharedCredentials).toBe(false);
    expect(formToConfig(values)).not.toHaveProperty("credentials");
  });
});
