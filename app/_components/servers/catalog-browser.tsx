"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import type { EntryField, EntryOption } from "@/lib/catalog/entry-form";
import { api, workspaceApiPath } from "../api-client";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** An entry as `GET /api/catalog` lists it for this workspace. */
interface CatalogEntry {
  id: string;
  name: string;
  title: string | null;
  description: string;
  status: "active" | "deprecated" | "deleted";
  statusMessage: string | null;
  version: string | null;
  kinds: string[];
  needsAuth: boolean;
  options: EntryOption[];
}

// A server name here from the entry's reverse-DNS name: its last part, in the characters names allow.
const suggestedName = (name: string) =>
  (name.split("/").pop() ?? name)
    .replace(/[^A-Za-z0-9_.-]/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 48) || "server";

function FieldInput({ field }: { field: EntryField }) {
  const name = `value:${field.key}`;
  const label = `${field.label}${field.required ? " *" : ""}`;
  return (
    <Label className="mb-0 block">
      <span className="mb-1 block text-sm">
        {label}
        {field.secret && (
          <Badge tone="warning" className="ml-2">
            secret
          </Badge>
        )}
      </span>
      {field.choices ? (
        <NativeSelect name={name} aria-label={field.label} defaultValue={field.default ?? field.choices[0]} required={field.required}>
          {field.choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
      ) : (
        <Input
          name={name}
          aria-label={field.label}
          type={field.secret ? "password" : "text"}
          autoComplete={field.secret ? "new-password" : "off"}
          required={field.required && !field.default}
          defaultValue={field.default ?? ""}
          placeholder={field.placeholder ?? undefined}
        />
      )}
      {field.description && <span className="mt-1 block text-xs text-muted-foreground">{field.description}</span>}
    </Label>
  );
}

/** The Add form generated from an entry: the way to run it, a name, whose credentials, and its fields. */
function AddForm({ entry, onDone }: { entry: CatalogEntry; onDone: (serverId: string) => void }) {
  const ws = useWorkspaceSlug();
  const runnable = entry.options.filter((o) => o.runnable);
  const [optionId, setOptionId] = useState(runnable[0]?.id ?? "");
  const [error, setError] = useState<string | null>(null);
  const option = runnable.find((o) => o.id === optionId);
  return (
    <form
      className="space-y-2 rounded border p-2"
      data-testid={`catalog-add-form-${entry.name}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const values: Record<string, string> = {};
        for (const [key, value] of data.entries()) if (key.startsWith("value:") && value !== "") values[key.slice(6)] = String(value);
        setError(null);
        try {
          const server = await api<{ id: string }>(workspaceApiPath(ws, `catalog/${encodeURIComponent(entry.id)}/add`), {
            method: "POST",
            json: { option: optionId, name: data.get("name"), credentials: data.get("credentials"), values },
          });
          onDone(server.id);
        } catch (err) {
          setError((err as Error).message);
        }
      }}
    >
      {entry.options
        .filter((o) => !o.runnable)
        .map((o) => (
          <p key={o.id} className="text-sm text-muted-foreground">
            {o.label}: {o.note}
          </p>
        ))}
      {runnable.length > 1 && (
        <Label className="mb-0 block">
          <span className="mb-1 block text-sm">Run as</span>
          <NativeSelect aria-label="Run as" value={optionId} onChange={(e) => setOptionId(e.target.value)}>
            {runnable.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        </Label>
      )}
      {option?.launch && (
        <p className="text-sm">
          Launch: <code data-testid="catalog-launch">{option.launch}</code> ({option.note})
        </p>
      )}
      <Label className="mb-0 block">
        <span className="mb-1 block text-sm">Name here *</span>
        <Input name="name" aria-label="Server name" required defaultValue={suggestedName(entry.name)} />
      </Label>
      <Label className="mb-0 block">
        <span className="mb-1 block text-sm">Credentials</span>
        <NativeSelect name="credentials" aria-label="Credentials" defaultValue="per_member">
          <option value="per_member">each member's own (secret fields are filled per member)</option>
          <option value="shared">shared: the values entered here for everyone</option>
        </NativeSelect>
      </Label>
      {option?.fields.map((f) => (
        <FieldInput key={`${option.id}:${f.key}`} field={f} />
      ))}
      {error && <FieldError role="alert">{error}</FieldError>}
      <Button type="submit" disabled={!option}>
        Save server
      </Button>
    </form>
  );
}

/** `GET /api/settings/catalog`: may members add remote entries here, and may the caller change that. */
interface CatalogSettings {
  membersAddRemote: boolean;
  canChange: boolean;
}

/** Owners' and admins' switch: may members add remote servers from the catalog here (off by default). */
function MembersMayAdd() {
  const ws = useWorkspaceSlug();
  const path = workspaceApiPath(ws, "settings/catalog");
  const [settings, setSettings] = useState<CatalogSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<CatalogSettings>(path).then(setSettings, (e: Error) => setError(e.message));
  }, [path]);
  if (!settings) return error ? <FieldError role="alert">{error}</FieldError> : null;
  if (!settings.canChange)
    return (
      <p className="text-sm text-muted-foreground" data-testid="catalog-members-add">
        {settings.membersAddRemote
          ? "Members may add remote servers from the catalog here; packages (stdio) are added by instance administrators."
          : "Owners and admins add servers from the catalog here."}
      </p>
    );
  return (
    <div className="space-y-1">
      <ChoiceLabel className="flex items-center gap-2 text-sm">
        <Checkbox
          data-testid="catalog-members-add"
          checked={settings.membersAddRemote}
          onChange={async (e) => {
            // Shown at once (a controlled box would spring back until the answer), put back on a refusal.
            const before = settings;
            setSettings({ ...settings, membersAddRemote: e.target.checked });
            setError(null);
            try {
              setSettings(await api<CatalogSettings>(path, { method: "PUT", json: { membersAddRemote: e.target.checked } }));
            } catch (err) {
              setSettings(before);
              setError((err as Error).message);
            }
          }}
        />
        Members may add remote servers from the catalog (packages stay for instance administrators)
      </ChoiceLabel>
      {error && <FieldError role="alert">{error}</FieldError>}
    </div>
  );
}

/** The workspace's view of the server catalog: search, then Add on an entry opens its generated form. */
export function CatalogBrowser() {
  const ws = useWorkspaceSlug();
  const router = useRouter();
  const [q, setQ] = useState("");
  const [entries, setEntries] = useState<CatalogEntry[] | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setEntries(
        (await api<{ entries: CatalogEntry[] }>(`${workspaceApiPath(ws, "catalog")}?${new URLSearchParams(q ? { q } : {})}`)).entries,
      );
    } catch (e) {
      setError((e as Error).message);
    }
  }, [ws, q]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="mx-auto w-full max-w-4xl min-w-0 space-y-3 p-4 sm:p-6" data-testid="catalog-browser">
      <h1 className="text-xl font-semibold">Server catalog</h1>
      <MembersMayAdd />
      <Input
        aria-label="Search the catalog"
        placeholder="Search name, description, transport, auth"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      {error && <FieldError role="alert">{error}</FieldError>}
      {entries?.length === 0 && <p className="text-sm text-muted-foreground">No catalog entry for this workspace.</p>}
      <ul className="space-y-2">
        {entries?.map((entry) => (
          <li key={entry.id} className="space-y-1 rounded border p-2" data-testid={`catalog-item-${entry.name}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{entry.title ?? entry.name}</span>
              <span className="font-mono text-xs text-muted-foreground">
                {entry.name} {entry.version}
              </span>
              {entry.kinds.map((k) => (
                <Badge key={k}>{k}</Badge>
              ))}
              {entry.needsAuth && <Badge>auth</Badge>}
              {entry.status === "deprecated" && <Badge tone="warning">deprecated</Badge>}
              <Button type="button" size="sm" className="ml-auto" onClick={() => setAdding(adding === entry.id ? null : entry.id)}>
                Add
              </Button>
            </div>
            <p className="text-sm">{entry.description}</p>
            {entry.statusMessage && <p className="text-sm text-muted-foreground">{entry.statusMessage}</p>}
            {adding === entry.id && (
              <AddForm entry={entry} onDone={(id) => router.push(`/w/${encodeURIComponent(ws)}/servers/${encodeURIComponent(id)}`)} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
