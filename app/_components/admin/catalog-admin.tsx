"use client";

import { useCallback, useEffect, useState } from "react";
import { api } from "../api-client";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { FileInput } from "../ui/primitives/file-input";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { Textarea } from "../ui/primitives/textarea";
import { CatalogRegistries, type RegistryRow } from "./catalog-registries";

/** An entry as `GET /api/admin/catalog` lists it. */
interface EntryRow {
  id: string;
  name: string;
  title: string | null;
  description: string;
  source: "manual" | "registry";
  status: "active" | "deprecated" | "deleted";
  statusMessage: string | null;
  pinnedVersion: string | null;
  visibility: "all" | "workspaces" | "admins";
  workspaceIds?: string[];
  version: string | null;
  latestVersion: string | null;
  kinds: string[];
  versions: { version: string; isLatest: boolean; status: string }[];
}
interface WorkspaceRow {
  id: string;
  name: string;
}

/** One entry's settings: pin, visibility (and its workspaces), status and message. */
function EntrySettings({
  entry,
  workspaces,
  act,
}: {
  entry: EntryRow;
  workspaces: WorkspaceRow[];
  act: (fn: () => Promise<unknown>) => Promise<void>;
}) {
  const [visibility, setVisibility] = useState(entry.visibility);
  const [chosen, setChosen] = useState<string[]>(entry.workspaceIds ?? []);
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const pin = String(data.get("pin"));
        void act(() =>
          api(`/api/admin/catalog/entries/${entry.id}`, {
            method: "PATCH",
            json: {
              pinnedVersion: pin === "" ? null : pin,
              visibility,
              workspaceIds: visibility === "workspaces" ? chosen : [],
              status: data.get("status"),
              statusMessage: String(data.get("statusMessage") ?? "") || null,
            },
          }),
        );
      }}
    >
      <Label className="mb-0">
        <span className="mb-1 block text-xs">Version</span>
        <NativeSelect name="pin" aria-label={`Version of ${entry.name}`} defaultValue={entry.pinnedVersion ?? ""}>
          <option value="">follow the latest ({entry.latestVersion})</option>
          {entry.versions.map((v) => (
            <option key={v.version} value={v.version}>
              pin {v.version}
            </option>
          ))}
        </NativeSelect>
      </Label>
      <Label className="mb-0">
        <span className="mb-1 block text-xs">Visible to</span>
        <NativeSelect
          aria-label={`Visibility of ${entry.name}`}
          value={visibility}
          onChange={(e) => setVisibility(e.target.value as EntryRow["visibility"])}
        >
          <option value="admins">instance administrators only</option>
          <option value="all">every workspace</option>
          <option value="workspaces">chosen workspaces</option>
        </NativeSelect>
      </Label>
      {visibility === "workspaces" && (
        <fieldset className="flex flex-wrap gap-2 text-sm">
          {workspaces.map((w) => (
            <ChoiceLabel key={w.id} className="flex items-center gap-2">
              <Checkbox
                aria-label={`Show ${entry.name} in ${w.name}`}
                checked={chosen.includes(w.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, w.id] : chosen.filter((id) => id !== w.id))}
              />
              {w.name}
            </ChoiceLabel>
          ))}
        </fieldset>
      )}
      <Label className="mb-0">
        <span className="mb-1 block text-xs">Status</span>
        <NativeSelect name="status" aria-label={`Status of ${entry.name}`} defaultValue={entry.status}>
          <option value="active">active</option>
          <option value="deprecated">deprecated</option>
          <option value="deleted">deleted</option>
        </NativeSelect>
      </Label>
      <Label className="mb-0">
        <span className="mb-1 block text-xs">Status message</span>
        <Input name="statusMessage" defaultValue={entry.statusMessage ?? ""} aria-label={`Status message of ${entry.name}`} />
      </Label>
      <Button type="submit" size="sm">
        Save
      </Button>
      <Button
        type="button"
        variant="destructive"
        size="sm"
        onClick={() =>
          confirm(`Remove ${entry.name} from the catalog?`) &&
          act(() => api(`/api/admin/catalog/entries/${entry.id}`, { method: "DELETE" }))
        }
      >
        Remove
      </Button>
    </form>
  );
}

/** Paste or upload a server.json: a new entry, or a new version of a hand entry. */
function UploadForm({ act }: { act: (fn: () => Promise<unknown>) => Promise<void> }) {
  const [text, setText] = useState("");
  const [parseError, setParseError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        let serverJson: unknown;
        try {
          serverJson = JSON.parse(text);
        } catch {
          setParseError("This is not JSON.");
          return;
        }
        setParseError(null);
        void act(async () => {
          await api("/api/admin/catalog/entries", { method: "POST", json: { serverJson } });
          setText("");
        });
      }}
    >
      <Label className="mb-0 block">
        <span className="mb-1 block">Add a server.json (paste it, or choose the file)</span>
        <Textarea rows={6} className="font-mono" value={text} onChange={(e) => setText(e.target.value)} data-testid="catalog-server-json" />
      </Label>
      <FileInput
        accept="application/json,.json"
        aria-label="server.json file"
        onChange={async (e) => setText((await e.target.files?.[0]?.text()) ?? "")}
      />
      {parseError && <FieldError role="alert">{parseError}</FieldError>}
      <Button type="submit" disabled={!text.trim()}>
        Add to catalog
      </Button>
    </form>
  );
}

/** The server catalog's admin screen: registries, uploads, and each entry's pin, visibility and status. */
export function CatalogAdmin() {
  const [entries, setEntries] = useState<EntryRow[]>([]);
  const [registries, setRegistries] = useState<RegistryRow[]>([]);
  const [workspaces, setWorkspaces] = useState<WorkspaceRow[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const catalog = await api<{ entries: EntryRow[]; registries: RegistryRow[] }>("/api/admin/catalog");
    setEntries(catalog.entries);
    setRegistries(catalog.registries);
    setWorkspaces((await api<{ workspaces: WorkspaceRow[] }>("/api/admin/workspaces")).workspaces);
  }, []);
  useEffect(() => {
    load().catch((e: Error) => setError(e.message));
  }, [load]);

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError((e as Error).message);
    }
    await load().catch((e: Error) => setError(e.message));
  };

  return (
    <section className="mx-auto w-full max-w-5xl min-w-0 space-y-4 px-4 sm:px-6" data-testid="catalog-admin">
      <h2 className="text-lg font-semibold">Server catalog</h2>
      {error && (
        <FieldError role="alert" data-testid="catalog-error">
          {error}
        </FieldError>
      )}
      <CatalogRegistries registries={registries} act={act} />
      <UploadForm act={act} />
      <h3 className="font-semibold">Entries</h3>
      {entries.length === 0 && <p className="text-sm text-muted-foreground">The catalog is empty.</p>}
      <ul className="space-y-3">
        {entries.map((entry) => (
          <li key={entry.id} className="space-y-1 rounded border p-2" data-testid={`catalog-entry-${entry.name}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-sm">{entry.name}</span>
              {entry.title && <span>{entry.title}</span>}
              <span className="text-sm text-muted-foreground">{entry.version}</span>
              {entry.kinds.map((k) => (
                <Badge key={k}>{k}</Badge>
              ))}
              {entry.status !== "active" && <Badge tone="warning">{entry.status}</Badge>}
              <Badge>{entry.source === "registry" ? "from a registry" : "by hand"}</Badge>
            </div>
            <p className="text-sm">{entry.description}</p>
            {entry.statusMessage && <p className="text-sm text-muted-foreground">{entry.statusMessage}</p>}
            <EntrySettings key={`${entry.id}-${entry.visibility}-${entry.pinnedVersion}`} entry={entry} workspaces={workspaces} act={act} />
          </li>
        ))}
      </ul>
    </section>
  );
}
