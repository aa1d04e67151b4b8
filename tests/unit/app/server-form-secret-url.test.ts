import { describe, expect, it } from "vitest";
import { configToForm, EMPTY_FORM, formFieldOf, formToConfig } from "@/app/_components/servers/form-model";
import { parseServerConfig } from "@/lib/mcp/config";

describe("the server form's secret URL box", () => {
  it("writes secret_url only when ticked, and reads it back from a stored (masked) config", () => {
    const form = { ...EMPTY_FORM, name: "hook", url: "https://hooks.example.com/T0/B0/xyz" };
    expect(formToConfig(form)).not.toHaveProperty("secret_url");
    const config = formToConfig({ ...form, secretUrl: true });
    expect(config).toMatchObject({ url: form.url, secret_url: true });
    const stored = parseServerConfig({ url: "https://hooks.example.com/********", secret_url: true }, "hook");
    expect(configToForm("hook", stored).secretUrl).toBe(true);
    expect(formToConfig(configToForm("hook", stored), stored)).toMatchObject({
      url: "https://hooks.example.com/********",
      secret_url: true,
    });
  });

  it("names the box for an API error on secret_url", () => {
    expect(formFieldOf("config.secret_url")).toBe("secretUrl");
  });
});
