"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { FieldError } from "../ui/primitives/label";

/** A connected OAuth client as the account page lists it (never a token). */
export interface ConnectedClientItem {
  id: string;
  clientName: string | null;
  clientId: string;
  workspaceName: string;
  serverName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

const day = (iso: string) => new Date(iso).toLocaleDateString();

/**
 * Account › Connected clients (docs/gateway.md#the-authorization-server): the MCP clients the user
 * allowed through Switchboard's sign-in, with the endpoint each may use, when it was allowed and
 * last used; Revoke (after a confirmation) ends its access and every token of it at once.
 */
export function ConnectedClients({ clients }: { clients: ConnectedClientItem[] }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function revoke(id: string) {
    setError(null);
    try {
      await api(`/api/account/oauth-clients/${encodeURIComponent(id)}`, { method: "DELETE" });
      setConfirming(null);
      router.refresh();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The client could not be revoked.");
    }
  }

  return (
    <div className="space-y-3" data-testid="connected-clients">
      <h2 className="text-lg font-medium">Connected clients</h2>
      <p className="text-sm text-muted-foreground">MCP clients you allowed to use a workspace as you, by signing in through the browser.</p>
      {error && <FieldError role="alert">{error}</FieldError>}
      {clients.length === 0 ? (
        <p className="text-sm text-muted-foreground">None yet.</p>
      ) : (
        <ul className="space-y-3 text-sm">
          {clients.map((client) => {
            const name = client.clientName ?? client.clientId;
            return (
              <li key={client.id} className="space-y-1 rounded-md border border-border p-3" data-testid="connected-client">
                <div className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-medium break-all">{name}</span>
                  {client.clientName && <span className="text-xs text-muted-foreground">(name given by the client)</span>}
                </div>
                <p className="break-words text-muted-foreground">
                  {client.serverName ? `${client.workspaceName} › ${client.serverName}` : `${client.workspaceName} (every server)`} ·
                  allowed {day(client.createdAt)} · {client.lastUsedAt ? `last used ${day(client.lastUsedAt)}` : "never used"}
                </p>
                {confirming === client.id ? (
                  <div className="flex flex-wrap items-center gap-2">
                    <span>Revoke “{name}”? It stops at once and must sign in again.</span>
                    <Button size="sm" variant="destructive" onClick={() => void revoke(client.id)}>
                      Revoke client
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                      Cancel
                    </Button>
                  </div>
                ) : (
                  <Button size="sm" variant="ghost" onClick={() => setConfirming(client.id)} aria-label={`Revoke ${name}`}>
                    Revoke
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
