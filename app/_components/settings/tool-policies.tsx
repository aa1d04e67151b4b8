"use client";
/**
 * Per-tool approval policy: ask every time, always allow, or never allow (deny) — the user's own
 * choice, and for workspace owners/admins the workspace's, which members cannot loosen.
 */
import { ScrollX } from "../ui/primitives/scroll-x";
import { useCallback, useEffect, useState } from "react";
import { apiRequest, type ToolPolicyRow, workspaceApiPath } from "../api-client";
import { NativeSelect } from "../ui/primitives/select";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

type Policy = "ask" | "allow" | "deny";
type Listing = {
  tools: ToolPolicyRow[];
  errors: { serverName: string; message: string; connecting: boolean }[];
  canManageWorkspace: boolean;
};
const LABEL: Record<Policy, string> = { ask: "ask", allow: "always", deny: "never" };

/** The table. */
export function ToolPolicies() {
  const ws = useWorkspaceSlug();
  const url = workspaceApiPath(ws, "settings/tool-policies");
  const [data, setData] = useState<Listing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    apiRequest<Listing>(url).then(setData, (e: Error) => setProblem(e.message));
  }, [url]);
  useEffect(load, [load]);

  const change = async (row: ToolPolicyRow, value: string, scope: "user" | "workspace" = "user") => {
    setProblem(null);
    try {
      await apiRequest(url, {
        method: "PUT",
        body: JSON.stringify({ serverId: row.serverId, toolName: row.toolName, policy: value === "default" ? null : value, scope }),
      });
      load();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };

  return (
    <section data-testid="tool-policies" className="space-y-2">
      <h2 className="text-lg font-semibold">Tool approval</h2>
      <p className="text-sm text-muted-foreground">
        Before the agent runs a tool, it asks you — unless you allow the tool always or never. A server&apos;s own labels (such as
        &quot;read-only&quot;) are claims, not permissions: only on a server marked trusted on the Servers page do its read-only tools start
        as &quot;always&quot;. After a tool result in the same turn, calls that could send data out ask even when set to always.
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {!data && !problem && <p className="text-sm text-muted-foreground">Loading tools…</p>}
      {data?.errors.map((e) =>
        e.connecting ? (
          <p key={e.serverName} className="text-sm text-muted-foreground" data-testid="policies-connecting">
            {e.serverName} is still connecting; its tools appear here once it is connected.
          </p>
        ) : (
          <p key={e.serverName} className="text-sm text-red-700">
            {e.serverName}: {e.message}
          </p>
        ),
      )}
      {data && data.tools.length === 0 && <p className="text-sm text-muted-foreground">No tools yet.</p>}
      {data && data.tools.length > 0 && (
        <ScrollX label="Tool policies">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-1">Server</th>
                <th>Tool</th>
                <th>Your policy</th>
                <th>Workspace</th>
              </tr>
            </thead>
            <tbody>
              {data.tools.map((row) => (
                <tr
                  key={`${row.serverId}:${row.toolName}`}
                  data-testid={`policy-${row.serverName}-${row.toolName}`}
                  className="border-t border-border"
                >
                  <td className="py-1">{row.serverName}</td>
                  <td>
                    {row.title ?? row.toolName}
                    {row.readOnlyHint && <span className="ml-1 text-xs text-muted-foreground">(read-only claim)</span>}
                    {row.trusted && <span className="ml-1 text-xs text-emerald-700">(trusted server)</span>}
                    {row.held && <span className="ml-1 text-xs text-amber-700">(held for review: {row.held})</span>}
                  </td>
                  <td>
                    <NativeSelect
                      aria-label={`Policy for ${row.serverName} ${row.toolName}`}
                      value={row.isDefault ? "default" : row.policy}
                      onChange={(e) => void change(row, e.target.value)}
                      className="h-8 w-auto px-1 py-0"
                    >
                      <option value="default">Default ({LABEL[row.workspacePolicy ?? row.defaultPolicy]})</option>
                      <option value="ask">Ask every time</option>
                      <option value="allow">Always allow</option>
                      <option value="deny">Never allow</option>
                    </NativeSelect>
                    {row.policy !== (row.userPolicy ?? row.policy) && (
                      <span className="ml-1 text-xs text-amber-700">(workspace: {LABEL[row.policy]})</span>
                    )}
                  </td>
                  <td>
                    {data.canManageWorkspace ? (
                      <NativeSelect
                        aria-label={`Workspace policy for ${row.serverName} ${row.toolName}`}
                        data-testid={`workspace-policy-${row.serverName}-${row.toolName}`}
                        value={row.workspacePolicy ?? "default"}
                        onChange={(e) => void change(row, e.target.value, "workspace")}
                        className="h-8 w-auto px-1 py-0"
                      >
                        <option value="default">None</option>
                        <option value="ask">At least ask</option>
                        <option value="allow">Allow by default</option>
                        <option value="deny">Never</option>
                      </NativeSelect>
                    ) : (
                      <span className="text-xs text-muted-foreground">{row.workspacePolicy ? LABEL[row.workspacePolicy] : "—"}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
    </section>
  );
}
