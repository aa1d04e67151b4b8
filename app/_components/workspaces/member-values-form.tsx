"use client";

import { toast } from "../ui/primitives/toast";
import { useEffect, useState } from "react";
import { api, workspaceApiPath } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { useWorkspaceSlug } from "./workspace-scope";

interface MemberValuesView {
  origin: string | null;
  keys: { key: string; set: boolean; held: boolean }[];
}

/**
 * The caller's own values for a server's per-member header/env keys (like a personal API key).
 * Values are write-only: the API says which keys are set, never what they hold, and which are held
 * because the server moved to another address since they were entered (sent again only once the
 * member confirms them for the new one).
 */
export function MemberValuesForm({ serverId, serverName, keys }: { serverId: string; serverName: string; keys: string[] }) {
  const ws = useWorkspaceSlug();
  const [view, show] = useState<MemberValuesView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const path = workspaceApiPath(ws, `servers/${encodeURIComponent(serverId)}/member-values`);

  useEffect(() => {
    api<MemberValuesView>(path).then(show, (err: Error) => setMessage(err.message));
  }, [path]);

  const set = Object.fromEntries(view?.keys.map((k) => [k.key, k.set]) ?? []);
  const held = view?.keys.filter((k) => k.held).map((k) => k.key) ?? [];

  async function confirmHeld() {
    try {
      // The mask keeps each stored value and confirms it for the server's current address.
      show(
        await api<MemberValuesView>(path, { method: "PUT", json: { values: Object.fromEntries(held.map((key) => [key, "********"])) } }),
      );
      setMessage("Confirmed for the new address.");
    } catch (err) {
      setMessage((err as Error).message);
    }
  }

  return (
    <form
      className="mt-2 space-y-2 rounded-md border border-border p-3"
      data-testid={`member-values-${serverName}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const element = e.currentTarget;
        const form = new FormData(element);
        const values = Object.fromEntries(keys.map((key) => [key, String(form.get(key) ?? "")]).filter(([, v]) => v));
        try {
          show(await api<MemberValuesView>(path, { method: "PUT", json: { values } }));
          setMessage("Saved.");
          toast.success("Saved");
          element.reset(); // the value is write-only: never keep it on screen
        } catch (err) {
          setMessage((err as Error).message);
        }
      }}
    >
      <p className="text-sm">
        <strong>{serverName}</strong> needs your own values:
      </p>
      {keys.map((key) => (
        <Label key={key} className="mb-0">
          <span className="mb-1 block">
            {key} {set[key] ? (held.includes(key) ? "(held: entered for another address)" : "(set)") : ""}
          </span>
          <Input name={key} type="password" autoComplete="off" aria-label={`Your value for ${key}`} />
        </Label>
      ))}
      <Button variant="secondary" type="submit">
        Save my values
      </Button>
      {held.length > 0 && (
        <Button type="button" variant="secondary" className="ml-2" onClick={() => void confirmHeld()} data-testid="confirm-held-values">
          Send my stored values to {view?.origin ?? "the new address"}
        </Button>
      )}
      {message && <span className="ml-2 text-sm text-muted-foreground">{message}</span>}
    </form>
  );
}
