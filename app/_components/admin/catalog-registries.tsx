"use client";

import { useState } from "react";
import { api } from "../api-client";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";

/** A registry as `GET /api/admin/catalog` lists it. */
export interface RegistryRow {
  id: string;
  url: string;
  mode: "chosen" | "filter";
  filter: string | null;
  syncedAt: string | null;
  lastReport: {
    imported: number;
    updated: number;
    skipped: { name: string; version?: string; field: string; message: string }[];
    error?: string;
  } | null;
}

type Browsed = {
  servers: (
    | { ok: true; name: string; title: string | null; description: string; version: string; status: string }
    | { ok: false; name: string; version: string | null; issues: { field: string; message: string }[] }
  )[];
  nextCursor: string | null;
};

/** What the last sync or import did, with each skipped entry and its field. */
function Report({ report }: { report: NonNullable<RegistryRow["lastReport"]> }) {
  return (
    <div className="text-sm" data-testid="catalog-registry-report">
      <span>
        {report.imported} imported, {report.updated} updated, {report.skipped.length} skipped
      </span>
      {report.error && <p className="text-destructive">{report.error}</p>}
      <ul className="list-disc pl-5">
        {report.skipped.map((s) => (
          <li key={`${s.name}@${s.version ?? ""}:${s.field}`}>
            {s.name}
            {s.version ? ` ${s.version}` : ""}: <code>{s.field}</code> {s.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A registry's servers, one page at a time, with a box per valid one to import it. */
function BrowsePanel({ registry, act }: { registry: RegistryRow; act: (fn: () => Promise<unknown>) => Promise<void> }) {
  const [search, setSearch] = useState("");
  const [page, setPage] = useState<Browsed | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const load = (cursor?: string) =>
    act(async () => {
      const query = new URLSearchParams({ ...(search ? { search } : {}), ...(cursor ? { cursor } : {}) });
      setPage(await api<Browsed>(`/api/admin/catalog/registries/${registry.id}/servers?${query}`));
    });
  return (
    <div className="space-y-2 rounded border p-2" data-testid="catalog-browse">
      <div className="flex gap-2">
        <Input aria-label="Search the registry" value={search} onChange={(e) => setSearch(e.target.value)} />
        <Button type="button" variant="secondary" onClick={() => load()}>
          Search
        </Button>
      </div>
      {page && (
        <ul className="space-y-1 text-sm">
          {page.servers.map((s) =>
            s.ok ? (
              <li key={s.name}>
                <ChoiceLabel className="flex items-center gap-2">
                  <Checkbox
                    aria-label={`Choose ${s.name}`}
                    checked={chosen.includes(s.name)}
                    onChange={(e) => setChosen(e.target.checked ? [...chosen, s.name] : chosen.filter((n) => n !== s.name))}
                  />
                  <span className="font-mono">{s.name}</span> {s.version} <span className="text-muted-foreground">{s.description}</span>
                  {s.status !== "active" && <Badge tone="warning">{s.status}</Badge>}
                </ChoiceLabel>
              </li>
            ) : (
              <li key={`${s.name}-bad`} className="text-destructive">
                {s.name}: not importable ({s.issues.map((i) => `${i.field}: ${i.message}`).join("; ")})
              </li>
            ),
          )}
        </ul>
      )}
      <div className="flex gap-2">
        {page?.nextCursor && (
          <Button type="button" variant="secondary" size="sm" onClick={() => load(page.nextCursor ?? undefined)}>
            Next page
          </Button>
        )}
        <Button
          type="button"
          size="sm"
          disabled={!chosen.length}
          onClick={() =>
            act(async () => {
              await api(`/api/admin/catalog/registries/${registry.id}/import`, { method: "POST", json: { names: chosen } });
              setChosen([]);
            })
          }
        >
          Import chosen ({chosen.length})
        </Button>
      </div>
    </div>
  );
}

/** The registries the catalog syncs from (none by default): add, browse and import, sync, remove. */
export function CatalogRegistries({ registries, act }: { registries: RegistryRow[]; act: (fn: () => Promise<unknown>) => Promise<void> }) {
  const [browsing, setBrowsing] = useState<string | null>(null);
  return (
    <section className="space-y-3">
      <h3 className="font-semibold">Registries</h3>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={async (e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = new FormData(form);
          const mode = String(data.get("mode"));
          await act(async () => {
            await api("/api/admin/catalog/registries", {
              method: "POST",
              json: { url: data.get("url"), mode, ...(mode === "filter" ? { filter: data.get("filter") } : {}) },
            });
            form.reset();
          });
        }}
      >
        <Label className="mb-0 min-w-0 flex-1 basis-64">
          <span className="mb-1 block">Registry URL (speaks /v0.1)</span>
          <Input name="url" type="url" required placeholder="https://registry.example.com" data-testid="catalog-registry-url" />
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">Sync follows</span>
          <NativeSelect name="mode" aria-label="Sync follows" defaultValue="chosen">
            <option value="chosen">the entries I import</option>
            <option value="filter">every name containing…</option>
          </NativeSelect>
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">Filter</span>
          <Input name="filter" aria-label="Filter" />
        </Label>
        <Button type="submit">Add registry</Button>
      </form>
      {registries.length === 0 && <p className="text-sm text-muted-foreground">No registry: entries come only from uploads.</p>}
      <ul className="space-y-2">
        {registries.map((r) => (
          <li key={r.id} className="space-y-1 rounded border p-2" data-testid={`catalog-registry-${r.url}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-sm">{r.url}</span>
              <Badge>{r.mode === "filter" ? `follows “${r.filter}”` : "follows imported entries"}</Badge>
              <span className="text-xs text-muted-foreground">
                {r.syncedAt ? `synced ${new Date(r.syncedAt).toLocaleString()}` : "never synced"}
              </span>
              <Button type="button" variant="secondary" size="sm" onClick={() => setBrowsing(browsing === r.id ? null : r.id)}>
                Browse
              </Button>
              <Button
                type="button"
                variant="secondary"
                size="sm"
                onClick={() => act(() => api(`/api/admin/catalog/registries/${r.id}/sync`, { method: "POST" }))}
              >
                Sync now
              </Button>
              <Button
                type="button"
                variant="destructive"
                size="sm"
                onClick={() =>
                  confirm(`Remove ${r.url}? Its entries stay.`) &&
                  act(() => api(`/api/admin/catalog/registries/${r.id}`, { method: "DELETE" }))
                }
              >
                Remove
              </Button>
            </div>
            {r.lastReport && <Report report={r.lastReport} />}
            {browsing === r.id && <BrowsePanel registry={r} act={act} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
