"use client";
/**
 * The catalog update on a server's page (docs/catalog.md#updates): when the entry it was added from
 * moved to another version, which config fields that version changes, and Apply, which saves it
 * like an edit by hand. Nothing is shown for a server typed by hand or already current.
 */
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import type { CatalogUpdate } from "@/lib/catalog/catalog-update";
import { api, workspaceApiPath } from "../api-client";
import { Button } from "../ui/primitives/button";
import { FieldError } from "../ui/primitives/label";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** The update on offer for `serverId`, with its diff and Apply. */
export function CatalogUpdatePanel({ serverId }: { serverId: string }) {
  const ws = useWorkspaceSlug();
  const router = useRouter();
  const [update, setUpdate] = useState<CatalogUpdate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = workspaceApiPath(ws, `servers/${encodeURIComponent(serverId)}/catalog-update`);
  const load = useCallback(async () => {
    try {
      setUpdate((await api<{ update: CatalogUpdate | null }>(path)).update);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [path]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!update) return error ? <FieldError role="alert">{error}</FieldError> : null;
  return (
    <section className="space-y-2 rounded border p-3 text-sm" data-testid="catalog-update" aria-labelledby="catalog-update-title">
      <h2 id="catalog-update-title" className="font-medium">
        Version {update.to} of {update.entryName} is in the catalog (this server: {update.from ?? "unknown"})
      </h2>
      {update.problem ? (
        <p>{update.problem}</p>
      ) : update.changes.length === 0 ? (
        <p>The new version changes nothing in this server&apos;s config.</p>
      ) : (
        <ul className="space-y-1" data-testid="catalog-update-changes">
          {update.changes.map((c) => (
            <li key={c.field} className="break-all">
              <code>{c.field}</code> {c.change}
              {c.change !== "added" && c.from !== null && (
                <>
                  {" "}
                  from <code>{c.from}</code>
                </>
              )}
              {c.change !== "removed" && c.to !== null && (
                <>
                  {" "}
                  to <code>{c.to}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {error && <FieldError role="alert">{error}</FieldError>}
      {!update.problem && (
        <Button
          type="button"
          size="sm"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await api(path, { method: "POST", json: { version: update.to } });
              await load();
              router.refresh();
            } catch (e) {
              setError((e as Error).message);
            } finally {
              setBusy(false);
            }
          }}
        >
          Apply update
        </Button>
      )}
    </section>
  );
}
