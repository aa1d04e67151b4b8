"use client";
/**
 * An audit log people can read: filters by person, action, target (and workspace, instance-wide)
 * chosen from lists of what the log holds, pages of 25 with Newer/Older, and a CSV export of what
 * the filters select. The entries themselves are a table on a wide screen, cards on a phone.
 */
import { useEffect, useState } from "react";
import type { auditPage } from "@/lib/workspaces/audit-view";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { FieldError, Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { AuditEntries, type AuditEntryView } from "./audit-entries";

type PageView = Awaited<ReturnType<typeof auditPage>>;
type Facets = NonNullable<PageView["facets"]>;
type Filters = { user: string; action: string; target: string; workspace: string };

/** Entries per page. */
const PAGE_SIZE = 25;
const NO_FILTERS: Filters = { user: "", action: "", target: "", workspace: "" };

/** The log at `source` (an audit route); `instance` adds the workspace filter and column. */
export function AuditLog({ source, instance = false }: { source: string; instance?: boolean }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [facets, setFacets] = useState<Facets | null>(null);
  // The `before` cursor of each page seen so far: the last one is the page shown.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [page, setPage] = useState<{ entries: AuditEntryView[]; nextBefore: number | null; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
  const queryText = query.toString();
  const before = cursors[cursors.length - 1];

  // Each change of filters or page starts a request; only the newest may fill the table. Without
  // the check a slow earlier answer (say, the unfiltered page) landing after a quicker later one
  // would show entries the filters no longer select.
  useEffect(() => {
    let current = true;
    const params = new URLSearchParams(queryText);
    params.set("limit", String(PAGE_SIZE));
    if (before) params.set("before", String(before));
    // The filters' lists come with the first page, so they include what happened since.
    if (!before) params.set("facets", "1");
    api<PageView>(`${source}?${params}`).then(
      (next) => {
        if (!current) return;
        setPage({ entries: next.entries, nextBefore: next.nextBefore, key: `${queryText}|${before ?? ""}` });
        if (next.facets) setFacets(next.facets);
        setError(null);
      },
      (e: unknown) => {
        if (current) setError((e as Error).message);
      },
    );
    return () => {
      current = false;
    };
  }, [source, queryText, before]);
  const shownKey = `${queryText}|${before ?? ""}`;

  function choose(key: keyof Filters, value: string) {
    setFilters((old) => ({ ...old, [key]: value }));
    setCursors([undefined]);
  }

  return (
    <section className="min-w-0 space-y-3" data-testid="audit-log" aria-labelledby="audit-heading" aria-busy={page?.key !== shownKey}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-heading" className="text-lg font-semibold">
          Audit log
        </h2>
        <Button asChild variant="secondary" size="sm">
          <a href={`${source}/export${queryText ? `?${queryText}` : ""}`} download data-testid="audit-export">
            Export CSV
          </a>
        </Button>
      </div>
      <div
        className={`grid grid-cols-1 gap-3 sm:grid-cols-2 ${instance ? "lg:grid-cols-4" : "lg:grid-cols-3"}`}
        data-testid="audit-filters"
      >
        <FilterSelect label="Person" all="Anyone" value={filters.user} onChange={(v) => choose("user", v)}>
          {facets?.actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.email})
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Action" all="Any action" value={filters.action} onChange={(v) => choose("action", v)}>
          {facets?.actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Target" all="Any target" value={filters.target} onChange={(v) => choose("target", v)}>
          {facets?.targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.subject ? `${t.subject.name}${t.subject.email ? ` (${t.subject.email})` : ` (${t.subject.kind})`}` : t.id}
            </option>
          ))}
        </FilterSelect>
        {instance && (
          <FilterSelect label="Workspace" all="Any workspace" value={filters.workspace} onChange={(v) => choose("workspace", v)}>
            {facets?.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name ?? `${w.id} (deleted)`}
              </option>
            ))}
          </FilterSelect>
        )}
      </div>
      {error && <FieldError>{error}</FieldError>}
      {page && page.entries.length === 0 && <p className="text-sm text-muted-foreground">No entries match.</p>}
      {page && page.entries.length > 0 && <AuditEntries entries={page.entries} showWorkspace={instance} />}
      <nav aria-label="Audit log pages" className="flex flex-wrap items-center gap-2 text-sm">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          disabled={cursors.length === 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </Button>
        <span data-testid="audit-page">Page {cursors.length}</span>
        <Button
          type="button"
          variant="secondary"
          size="sm"
          disabled={!page?.nextBefore}
          onClick={() => page?.nextBefore && setCursors((c) => [...c, page.nextBefore ?? undefined])}
        >
          Older
        </Button>
      </nav>
    </section>
  );
}

/** One filter: a labelled native select whose first option (`all`) clears it. */
function FilterSelect({
  label,
  all,
  value,
  onChange,
  children,
}: {
  label: string;
  all: string;
  value: string;
  onChange: (value: string) => void;
  children: React.ReactNode;
}) {
  const id = `audit-filter-${label.toLowerCase()}`;
  return (
    <div className="min-w-0">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {children}
      </NativeSelect>
    </div>
  );
}
