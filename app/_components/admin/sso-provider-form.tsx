"use client";

import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";

/** A provider as `GET /api/admin/sso-providers` answers it (never the client secret). */
export interface SsoProviderView {
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
 * The body of `POST /api/admin/sso-providers` or `PUT /api/admin/sso-providers/:id` from the form:
 * a blank client secret is left out, so an edit keeps the stored one.
 */
export function providerBody(form: FormData, withName: boolean): Record<string, unknown> {
  const claim = String(form.get("claim") ?? "").trim();
  const secret = String(form.get("clientSecret") ?? "");
  return {
    ...(withName ? { name: form.get("name") } : {}),
    label: String(form.get("label") ?? "").trim() || undefined,
    issuer: form.get("issuer"),
    clientId: form.get("clientId"),
    clientSecret: secret || undefined,
    scopes: String(form.get("scopes") ?? "").trim() || undefined,
    allowedDomains: list(form.get("domains")),
    claimMapping: claim ? { claim, adminGroups: list(form.get("adminGroups")), workspaces: parseMappings(form.get("mappings")) } : null,
  };
}

/** Props of {@link SsoProviderForm}: `provider` given, the form edits it (no name; the secret may stay blank). */
export interface SsoProviderFormProps {
  provider?: SsoProviderView;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  onCancel?: () => void;
}

/** The fields of a single sign-on provider, empty to add one or filled in to edit one. */
export function SsoProviderForm({ provider, onSubmit, onCancel }: SsoProviderFormProps) {
  const editing = !!provider;
  const mapping = provider?.claimMapping;
  const testId = editing ? `sso-provider-edit-${provider.id}` : "sso-provider-form";
  return (
    <form method="post" onSubmit={onSubmit} className="mt-2 grid gap-2 sm:grid-cols-2" data-testid={testId}>
      {!editing && (
        <Label>
          Name (its callback is /api/auth/callback/&lt;name&gt;)
          <Input name="name" required pattern="[A-Za-z0-9][A-Za-z0-9_\-]*" />
        </Label>
      )}
      <Label>
        Button label
        <Input name="label" defaultValue={provider?.label} />
      </Label>
      <Label>
        Issuer URL
        <Input name="issuer" type="url" required defaultValue={provider?.issuer} />
      </Label>
      <Label>
        Scopes
        <Input name="scopes" placeholder="openid email profile" defaultValue={provider?.scopes} />
      </Label>
      <Label>
        Client id
        <Input name="clientId" required defaultValue={provider?.clientId} />
      </Label>
      <Label>
        {editing ? "Client secret (leave blank to keep the current one)" : "Client secret"}
        <Input name="clientSecret" type="password" autoComplete="new-password" required={!editing} />
      </Label>
      <Label className="sm:col-span-2">
        Email domains that get an account at first sign-in (comma-separated)
        <Input name="domains" defaultValue={provider?.allowedDomains.join(", ")} />
      </Label>
      <Label>
        Claim that maps to roles (for example groups)
        <Input name="claim" defaultValue={mapping?.claim} />
      </Label>
      <Label>
        Groups that make instance administrators
        <Input name="adminGroups" defaultValue={mapping?.adminGroups.join(", ")} />
      </Label>
      <Label className="sm:col-span-2">
        Workspaces: one per line, “group, workspace id, role”
        <textarea
          name="mappings"
          rows={3}
          className="w-full rounded border border-border bg-surface p-2 font-mono"
          defaultValue={mapping?.workspaces.map((w) => `${w.group}, ${w.workspaceId}, ${w.role}`).join("\n")}
        />
      </Label>
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button type="submit" size="sm">
          {editing ? "Save provider" : "Add provider"}
        </Button>
        {onCancel && (
          <Button type="button" size="sm" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
