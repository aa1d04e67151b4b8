"use client";

import { useState } from "react";
import { Button } from "../ui/primitives/button";

/** A token as the account page lists it (never its secret). */
export interface TokenItem {
  id: string;
  name: string;
  hint: string;
  workspaceName: string;
  scopes: string[];
  expiresAt: string;
  lastUsedAt: string | null;
  state: "active" | "expired" | "revoked";
}

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** The caller's tokens with what each may do and when it was last used; Revoke asks to confirm first. */
export function TokenList({ tokens, onRevoke }: { tokens: TokenItem[]; onRevoke: (id: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState<string | null>(null);
  if (tokens.length === 0) return <p className="text-sm text-muted-foreground">None yet.</p>;
  return (
    <ul className="space-y-3 text-sm">
      {tokens.map((token) => (
        <li key={token.id} className="space-y-1 rounded-md border border-border p-3" data-testid="personal-token">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium break-all">{token.name}</span>
            <code className="text-muted-foreground">{token.hint}…</code>
            {token.state !== "active" && <span className="text-muted-foreground">({token.state})</span>}
          </div>
          <p className="text-muted-foreground">
            {token.workspaceName} · {token.scopes.join(", ")} · {token.state === "expired" ? "expired" : "expires"} {day(token.expiresAt)} ·{" "}
            {token.lastUsedAt ? `last used ${day(token.lastUsedAt)}` : "never used"}
          </p>
          {token.state === "active" &&
            (confirming === token.id ? (
              <div className="flex flex-wrap items-center gap-2">
                <span>Revoke “{token.name}”? Clients using it stop at once.</span>
                <Button size="sm" variant="destructive" onClick={() => void onRevoke(token.id).then(() => setConfirming(null))}>
                  Revoke token
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                  Cancel
                </Button>
              </div>
            ) : (
              <Button size="sm" variant="ghost" onClick={() => setConfirming(token.id)}>
                Revoke
              </Button>
            ))}
        </li>
      ))}
    </ul>
  );
}
