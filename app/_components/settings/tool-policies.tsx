"use client";
/** Per-tool approval policy: ask every time, always allow, or never allow (deny). */
import { useCallback, useEffect, useState } from "react";
import { listToolPolicies, setToolPolicy, type ToolPolicyList, type ToolPolicyRow } from "../api-client";

/** The table. */
export function ToolPolicies() {
  const [data, setData] = useState<ToolPolicyList | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    listToolPolicies().then(setData, (e: Error) => setProblem(e.message));
  }, []);
  useEffect(load, [load]);

  const change = async (row: ToolPolicyRow, value: string) => {
    setProblem(null);
    try {
      await setToolPolicy(row, value === "default" ? null : value);
      load();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };

  return (
    <section data-testid="tool-policies" className="space-y-2">
      <h2 className="text-lg font-semibold">Tool approval</h2>
      <p className="text-sm text-zinc-500">
        Before the agent runs a tool, it asks you — unless you allow the tool always or never. Tools a server marks read-only start as
        &quot;always&quot;; that mark is only a hint from the server, so change it if you disagree.
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {!data && !problem && <p className="text-sm text-zinc-500">Loading tools…</p>}
      {data?.errors.map((e) => (
        <p key={e.serverName} className="text-sm text-red-700">
          {e.serverName}: {e.message}
        </p>
      ))}
      {data && data.tools.length === 0 && <p className="text-sm text-zinc-500">No tools yet.</p>}
      {data && data.tools.length > 0 && (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-zinc-500">
              <th className="py-1">Server</th>
              <th>Tool</th>
              <th>Policy</th>
            </tr>
          </thead>
          <tbody>
            {data.tools.map((row) => (
              <tr
                key={`${row.serverId}:${row.toolName}`}
                data-testid={`policy-${row.serverName}-${row.toolName}`}
                className="border-t border-zinc-100 dark:border-zinc-800"
              >
                <td className="py-1">{row.serverName}</td>
                <td>
                  {row.title ?? row.toolName}
                  {row.readOnlyHint && <span className="ml-1 text-xs text-zinc-500">(read-only hint)</span>}
                </td>
                <td>
                  <select
                    aria-label={`Policy for ${row.serverName} ${row.toolName}`}
                    value={row.isDefault ? "default" : row.policy}
                    onChange={(e) => void change(row, e.target.value)}
                    className="rounded border px-1 dark:bg-zinc-900"
                  >
                    <option value="default">Default ({row.readOnlyHint ? "always" : "ask"})</option>
                    <option value="ask">Ask every time</option>
                    <option value="allow">Always allow</option>
                    <option value="deny">Never allow</option>
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
