"use client";
/**
 * Audit entries as a table with headers on a wide screen and as a list of cards on a phone; both
 * show who (name and email), what, on what (its name where it still exists), where and when.
 */
import type { auditPage } from "@/lib/workspaces/audit-view";
import { absoluteTime, relativeTime } from "./audit-time";

/** One entry as the audit routes return it. */
export type AuditEntryView = Awaited<ReturnType<typeof auditPage>>["entries"][number];

function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={absoluteTime(at)} className="block">
      <span className="block">{relativeTime(at)}</span>
      <span className="block text-xs text-muted-foreground">{absoluteTime(at)}</span>
    </time>
  );
}

function Who({ entry }: { entry: AuditEntryView }) {
  if (!entry.actorEmail) return <span className="text-muted-foreground">a deleted account</span>;
  return (
    <span className="block min-w-0">
      <span className="block break-words">{entry.actorName}</span>
      <span className="block break-all text-xs text-muted-foreground">{entry.actorEmail}</span>
    </span>
  );
}

function Target({ entry }: { entry: AuditEntryView }) {
  const subject = entry.targetSubject;
  if (subject) {
    return (
      <span className="block min-w-0">
        <span className="block break-words">
          {subject.name} <span className="text-xs text-muted-foreground">({subject.kind})</span>
        </span>
        {subject.email && <span className="block break-all text-xs text-muted-foreground">{subject.email}</span>}
      </span>
    );
  }
  return entry.target ? <code className="break-all text-xs text-muted-foreground">{entry.target}</code> : <span aria-hidden>—</span>;
}

/** A detail value in one short line: text as it is, anything nested as compact JSON. */
function detailValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

// Details read as "key value" lines (a role change shows "from member", "to admin") instead of one
// tall wrapped JSON string; a long value is cut to two lines with the whole in its title.
function Detail({ entry }: { entry: AuditEntryView }) {
  if (!entry.detail) return null;
  const pairs =
    typeof entry.detail === "object" && !Array.isArray(entry.detail) ? Object.entries(entry.detail) : [["", entry.detail] as const];
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs" data-testid="audit-detail">
      {pairs.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-muted-foreground">{key}</dt>
          <dd className="line-clamp-2 break-all" title={detailValue(value)}>
            {detailValue(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The entries of one page; `showWorkspace` adds the workspace column (the instance-wide log). */
export function AuditEntries({ entries, showWorkspace }: { entries: AuditEntryView[]; showWorkspace: boolean }) {
  return (
    <>
      <table className="hidden w-full table-fixed text-left text-sm md:table" data-testid="audit-table">
        <caption className="sr-only">Audit entries, newest first</caption>
        <thead className="border-b border-border text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="w-40 py-2 pr-3 font-medium">
              When
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Who
            </th>
            <th scope="col" className="w-40 py-2 pr-3 font-medium">
              Action
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Target
            </th>
            {showWorkspace && (
              <th scope="col" className="w-32 py-2 pr-3 font-medium">
                Workspace
              </th>
            )}
            <th scope="col" className="py-2 font-medium">
              Details
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {entries.map((e) => (
            <tr key={e.id} data-testid="audit-entry" className="align-top">
              <td className="py-2 pr-3">
                <When at={e.createdAt} />
              </td>
              <td className="py-2 pr-3">
                <Who entry={e} />
              </td>
              <td className="py-2 pr-3">
                <code className="break-all text-xs">{e.action}</code>
              </td>
              <td className="py-2 pr-3">
                <Target entry={e} />
              </td>
              {showWorkspace && <td className="break-words py-2 pr-3">{e.workspaceName ?? (e.workspaceId ? e.workspaceId : "—")}</td>}
              <td className="py-2">
                <Detail entry={e} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-2 md:hidden" aria-label="Audit entries, newest first">
        {entries.map((e) => (
          <li key={e.id} data-testid="audit-card" className="space-y-2 rounded-md border border-border bg-surface p-3 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <code className="break-all text-xs font-semibold">{e.action}</code>
              <When at={e.createdAt} />
            </div>
            <dl className="grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-2 gap-y-1">
              <dt className="text-xs text-muted-foreground">Who</dt>
              <dd className="min-w-0">
                <Who entry={e} />
              </dd>
              <dt className="text-xs text-muted-foreground">Target</dt>
              <dd className="min-w-0">
                <Target entry={e} />
              </dd>
              {showWorkspace && (
                <>
                  <dt className="text-xs text-muted-foreground">Workspace</dt>
                  <dd className="min-w-0 break-words">{e.workspaceName ?? e.workspaceId ?? "—"}</dd>
                </>
              )}
              {e.detail ? (
                <>
                  <dt className="text-xs text-muted-foreground">Details</dt>
                  <dd className="min-w-0">
                    <Detail entry={e} />
                  </dd>
                </>
              ) : null}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
