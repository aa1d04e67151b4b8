"use client";

import { useCallback, useEffect, useState } from "react";
import type { ReplicaView } from "@/lib/runtime/replica-registry";
import { ApiError, api } from "../api-client";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { FieldError } from "../ui/primitives/label";
import { ScrollX } from "../ui/primitives/scroll-x";

/**
 * Admin › Replicas (docs/deployment.md#cluster-mode): the app servers on this database, their build
 * and last heartbeat; a replica that stopped renewing it shows as gone until its row is cleared.
 */
export function ReplicasAdmin() {
  const [state, setState] = useState<{ clustered: boolean; replicas: ReplicaView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setState(await api("/api/admin/replicas"));
      setError(null);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The replica list could not be loaded.");
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="space-y-3" aria-labelledby="replicas-heading">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="replicas-heading" className="text-lg font-semibold">
          Replicas
        </h2>
        {state && <Badge>{state.clustered ? "cluster mode (Redis)" : "single node"}</Badge>}
        <Button type="button" variant="secondary" onClick={() => void load()}>
          Refresh
        </Button>
      </div>
      {error && <FieldError role="alert">{error}</FieldError>}
      {state && (
        <ScrollX label="Replicas">
          <table className="w-full text-sm" data-testid="admin-replicas">
            <thead>
              <tr className="text-left">
                <th className="p-1">Replica</th>
                <th className="p-1">Host</th>
                <th className="p-1">Build</th>
                <th className="p-1">Started</th>
                <th className="p-1">Last heartbeat</th>
                <th className="p-1">State</th>
              </tr>
            </thead>
            <tbody>
              {state.replicas.map((replica) => (
                <tr key={replica.id} className="border-t" data-testid="admin-replica">
                  <td className="p-1 font-mono">
                    {replica.id}
                    {replica.self && <span className="ml-1 text-xs">(this page)</span>}
                  </td>
                  <td className="p-1">{replica.host}</td>
                  <td className="p-1 font-mono">{replica.version}</td>
                  <td className="p-1">{new Date(replica.startedAt).toLocaleString()}</td>
                  <td className="p-1">{new Date(replica.heartbeatAt).toLocaleTimeString()}</td>
                  <td className="p-1">{replica.live ? <Badge tone="success">live</Badge> : <Badge tone="warning">gone</Badge>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
    </section>
  );
}
