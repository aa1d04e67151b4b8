"use client";

import { toast } from "../ui/primitives/toast";
import { useState } from "react";
import { api, workspaceApiPath } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { useWorkspaceSlug } from "./workspace-scope";

/**
 * The caller's own values for a server's per-member header/env keys (like a personal API key).
 * Values are write-only: the API says which keys are set, never what they hold.
 */
export function MemberValuesForm({ serverId, serverName, keys }: { serverId: string; serverName: string; keys: string[] }) {
  const ws = useWorkspaceSlug();
  const [set, setSet] = useState<Record<string, boolean> | null>(null);
  const [message, setMessage] = useState<string | null>(null);
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
          const view = await api<{ keys: { key: string; set: boolean }[] }>(
            workspaceApiPath(ws, `servers/${encodeURIComponent(serverId)}/member-values`),
            {
              method: "PUT",
              json: { values },
            },
          );
          setSet(Object.fromEntries(view.keys.map((k) => [k.key, k.set])));
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
            {key} {set?.[key] ? "(set)" : ""}
          </span>
          <Input name={key} type="password" autoComplete="off" aria-label={`Your value for ${key}`} />
        </Label>
      ))}
      <Button variant="secondary" type="submit">
        Save my values
      </Button>
      {message && <span className="ml-2 text-sm text-muted-foreground">{message}</span>}
    </form>
  );
}
