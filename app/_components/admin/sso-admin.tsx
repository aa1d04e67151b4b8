"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiError, api } from "../api-client";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";

/** A provider as `GET /api/admin/sso-providers` answers it (never the client secret). */
interface ProviderView {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  scopes: string;
  allowedDomains: string[];
  claimMapping: { claim: string; adminGroups: string[]; workspaces: { group: string; workspaceId: string; role: string }[] } | null;
  source: "env" | "admin";
  hasClientSecret: boolean;
}

const list = (text: FormDataEntryValue | null) =>
  String(text ?? "")
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

// "group, workspace id, role" per line.
function parseMappings(text: FormDataEntryValue | null) {
  return String(text ?? "")
    .split("\n")
    .map((line) => line.split(",").map((s) => s.trim()))
    .filter((parts) => parts[0])
    .map(([group, workspaceId, role]) => ({ group, workspaceId, role: role || "member" }));
}

/**
 * Admin › Single sign-on (docs/sso.md): the OpenID Connect providers (environment ones read-only),
 * adding and removing one, and SSO-only mode with its break-glass administrator. Saving is a
 * sensitive act: an old sign-in gets the re-authentication prompt first.
 */
export function SsoAdmin() {
  const [providers, setProviders] = useState<ProviderView[]>([]);
  const [settings, setSettings] = useState<{ ssoOnly: boolean; breakGlassEmail: string | null } | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    setProviders(await api<ProviderView[]>("/api/admin/sso-providers"));
    setSettings(await api("/api/admin/sso-settings"));
  }, []);
  useEffect(() => {
    void load().catch(() => setStatus({ ok: false, text: "The single sign-on settings could not be loaded." }));
  }, [load]);

  async function act(fn: () => Promise<unknown>, done: string) {
    try {
      await fn();
      await load();
      setStatus({ ok: true, text: done });
    } catch (caught) {
      setStatus({ ok: false, text: caught instanceof ApiError ? caught.message : "That did not work." });
    }
  }

  async function addProvider(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const claim = String(form.get("claim") ?? "").trim();
    const json = {
      name: form.get("name"),
      label: String(form.get("label") ?? "").trim() || undefined,
      issuer: form.get("issuer"),
      clientId: form.get("clientId"),
      clientSecret: form.get("clientSecret"),
      scopes: String(form.get("scopes") ?? "").trim() || undefined,
      allowedDomains: list(form.get("domains")),
      claimMapping: claim ? { claim, adminGroups: list(form.get("adminGroups")), workspaces: parseMappings(form.get("mappings")) } : null,
    };
    const target = event.currentTarget;
    await act(() => api("/api/admin/sso-providers", { method: "POST", json }), "Provider added.");
    target.reset();
  }

  async function saveSettings(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const json = { ssoOnly: form.get("ssoOnly") === "on", breakGlassEmail: String(form.get("breakGlass") ?? "").trim() || null };
    await act(() => api("/api/admin/sso-settings", { method: "PUT", json }), "Saved.");
  }

  return (
    <section className="space-y-4 text-sm" data-testid="sso-admin">
      <h2 className="text-lg font-medium">Single sign-on</h2>
      <ul className="space-y-2" data-testid="sso-providers">
        {providers.length === 0 && <li className="text-muted-foreground">No provider yet.</li>}
        {providers.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-2" data-testid={`sso-provider-${p.id}`}>
            <span className="font-medium">{p.label}</span>
            <span className="break-all text-muted-foreground">{p.issuer}</span>
            <Badge>{p.source === "env" ? "environment" : "admin"}</Badge>
            {p.allowedDomains.length > 0 && <span className="text-muted-foreground">new accounts: {p.allowedDomains.join(", ")}</span>}
            {p.claimMapping && <span className="text-muted-foreground">roles from “{p.claimMapping.claim}”</span>}
            {p.source === "admin" && (
              <Button
                type="button"
                size="sm"
                variant="destructive"
                onClick={() => act(() => api(`/api/admin/sso-providers/${p.id}`, { method: "DELETE" }), "Provider removed.")}
              >
                Remove
              </Button>
            )}
          </li>
        ))}
      </ul>
      <details>
        <summary className="cursor-pointer">Add a provider</summary>
        <form method="post" onSubmit={addProvider} className="mt-2 grid gap-2 sm:grid-cols-2" data-testid="sso-provider-form">
          <Label>
            Name (its callback is /api/auth/callback/&lt;name&gt;)
            <Input name="name" required pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" />
          </Label>
          <Label>
            Button label
            <Input name="label" />
          </Label>
          <Label>
            Issuer URL
            <Input name="issuer" type="url" required />
          </Label>
          <Label>
            Scopes
            <Input name="scopes" placeholder="openid email profile" />
          </Label>
          <Label>
            Client id
            <Input name="clientId" required />
          </Label>
          <Label>
            Client secret
            <Input name="clientSecret" type="password" autoComplete="off" required />
          </Label>
          <Label className="sm:col-span-2">
            Email domains that get an account at first sign-in (comma-separated)
            <Input name="domains" />
          </Label>
          <Label>
            Claim that maps to roles (for example groups)
            <Input name="claim" />
          </Label>
          <Label>
            Groups that make instance administrators
            <Input name="adminGroups" />
          </Label>
          <Label className="sm:col-span-2">
            Workspaces: one per line, “group, workspace id, role”
            <textarea name="mappings" rows={3} className="w-full rounded border border-border bg-surface p-2 font-mono" />
          </Label>
          <Button type="submit" size="sm">
            Add provider
          </Button>
        </form>
      </details>
      {settings && (
        <form method="post" onSubmit={saveSettings} className="space-y-2" data-testid="sso-only-form">
          <label className="flex items-center gap-2">
            <input type="checkbox" name="ssoOnly" defaultChecked={settings.ssoOnly} />
            SSO only: turn passwords off for everyone but the break-glass administrator
          </label>
          <Label>
            Break-glass administrator (email)
            <Input name="breakGlass" type="email" defaultValue={settings.breakGlassEmail ?? ""} />
          </Label>
          <Button type="submit" size="sm">
            Save
          </Button>
        </form>
      )}
      {status && (status.ok ? <p role="status">{status.text}</p> : <FieldError role="alert">{status.text}</FieldError>)}
    </section>
  );
}
