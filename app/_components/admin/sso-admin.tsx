"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiError, api } from "../api-client";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { providerBody, SsoProviderForm, type SsoProviderView } from "./sso-provider-form";

/**
 * Admin › Single sign-on (docs/sso.md): the OpenID Connect providers (environment ones read-only),
 * adding, editing (the client secret kept unless a new one is typed) and removing one, and SSO-only
 * mode with its break-glass administrator. Saving is a sensitive act: an old sign-in gets the
 * re-authentication prompt first.
 */
export function SsoAdmin() {
  const [providers, setProviders] = useState<SsoProviderView[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [settings, setSettings] = useState<{ ssoOnly: boolean; breakGlassEmail: string | null } | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    setProviders(await api<SsoProviderView[]>("/api/admin/sso-providers"));
    setSettings(await api("/api/admin/sso-settings"));
  }, []);
  useEffect(() => {
    void load().catch(() => setStatus({ ok: false, text: "The single sign-on settings could not be loaded." }));
  }, [load]);

  async function act(fn: () => Promise<unknown>, done: string): Promise<boolean> {
    try {
      await fn();
      await load();
      setStatus({ ok: true, text: done });
      return true;
    } catch (caught) {
      setStatus({ ok: false, text: caught instanceof ApiError ? caught.message : "That did not work." });
      return false;
    }
  }

  async function addProvider(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const json = providerBody(new FormData(target), true);
    if (await act(() => api("/api/admin/sso-providers", { method: "POST", json }), "Provider added.")) target.reset();
  }

  async function saveProvider(id: string, event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const json = providerBody(new FormData(event.currentTarget), false);
    const saved = await act(() => api(`/api/admin/sso-providers/${id}`, { method: "PUT", json }), "Provider saved.");
    if (saved) setEditing(null);
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
          <li key={p.id} className="space-y-1" data-testid={`sso-provider-${p.id}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{p.label}</span>
              <span className="break-all text-muted-foreground">{p.issuer}</span>
              <Badge>{p.source === "env" ? "environment" : "admin"}</Badge>
              {p.allowedDomains.length > 0 && <span className="text-muted-foreground">new accounts: {p.allowedDomains.join(", ")}</span>}
              {p.claimMapping && <span className="text-muted-foreground">roles from “{p.claimMapping.claim}”</span>}
              {p.source === "admin" && (
                <>
                  <Button
                    type="button"
                    size="sm"
                    variant="secondary"
                    aria-label={`Edit ${p.label}`}
                    aria-expanded={editing === p.id}
                    onClick={() => setEditing(editing === p.id ? null : p.id)}
                  >
                    Edit
                  </Button>
                  <Button
                    type="button"
                    size="sm"
                    variant="destructive"
                    onClick={() => act(() => api(`/api/admin/sso-providers/${p.id}`, { method: "DELETE" }), "Provider removed.")}
                  >
                    Remove
                  </Button>
                </>
              )}
            </div>
            {editing === p.id && (
              <SsoProviderForm provider={p} onSubmit={(event) => saveProvider(p.id, event)} onCancel={() => setEditing(null)} />
            )}
          </li>
        ))}
      </ul>
      <details>
        <summary className="cursor-pointer">Add a provider</summary>
        <SsoProviderForm onSubmit={addProvider} />
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
