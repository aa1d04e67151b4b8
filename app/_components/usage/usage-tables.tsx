"use client";
/** The Usage page's tables: by model, member, workspace, server (with p50/p95) and tool, each sortable. */
import type { UsageReport } from "@/lib/usage/report";
import { type Column, SortableTable } from "./sortable-table";

const num = (n: number) => n.toLocaleString("en-US");
const cost = (micros: number) => `$${(micros / 1e6).toFixed(micros > 0 && micros < 10_000 ? 4 : 2)}`;
const ms = (v: number | null) => (v === null ? "—" : `${num(v)} ms`);

function tokenColumns<T extends { inputTokens: number; outputTokens: number; costMicros: number }>(): Column<T>[] {
  return [
    { key: "in", label: "Tokens in", render: (r) => num(r.inputTokens), sortValue: (r) => r.inputTokens, numeric: true },
    { key: "out", label: "Tokens out", render: (r) => num(r.outputTokens), sortValue: (r) => r.outputTokens, numeric: true },
    { key: "cost", label: "Cost", render: (r) => cost(r.costMicros), sortValue: (r) => r.costMicros, numeric: true },
  ];
}

/** Every table the report has rows for. */
export function UsageTables({ report }: { report: UsageReport }) {
  type Model = UsageReport["models"][number];
  type Member = UsageReport["members"][number];
  type Workspace = UsageReport["workspaces"][number];
  type Server = UsageReport["servers"][number];
  type Tool = UsageReport["tools"][number];
  return (
    <div className="space-y-4">
      <SortableTable<Model>
        caption="By model"
        testId="usage-models"
        rows={report.models}
        initialSort="cost"
        columns={[
          { key: "model", label: "Model", render: (r) => `${r.provider} · ${r.model}`, sortValue: (r) => r.model },
          { key: "calls", label: "Requests", render: (r) => num(r.calls), sortValue: (r) => r.calls, numeric: true },
          ...tokenColumns<Model>(),
        ]}
      />
      <SortableTable<Member>
        caption="By member"
        testId="usage-members"
        rows={report.members}
        initialSort="cost"
        columns={[
          { key: "member", label: "Member", render: (r) => r.name ?? r.email ?? r.userId, sortValue: (r) => r.name ?? r.userId },
          ...tokenColumns<Member>(),
          { key: "calls", label: "Tool calls", render: (r) => num(r.mcpCalls), sortValue: (r) => r.mcpCalls, numeric: true },
        ]}
      />
      <SortableTable<Workspace>
        caption="By workspace"
        testId="usage-workspaces"
        rows={report.workspaces}
        initialSort="cost"
        columns={[
          { key: "workspace", label: "Workspace", render: (r) => r.name ?? r.workspaceId, sortValue: (r) => r.name ?? r.workspaceId },
          ...tokenColumns<Workspace>(),
          { key: "calls", label: "Tool calls", render: (r) => num(r.mcpCalls), sortValue: (r) => r.mcpCalls, numeric: true },
        ]}
      />
      <SortableTable<Server>
        caption="By server"
        testId="usage-servers"
        rows={report.servers}
        initialSort="calls"
        columns={[
          { key: "server", label: "Server", render: (r) => r.serverName, sortValue: (r) => r.serverName },
          { key: "calls", label: "Calls", render: (r) => num(r.calls), sortValue: (r) => r.calls, numeric: true },
          { key: "errors", label: "Errors", render: (r) => num(r.errors), sortValue: (r) => r.errors, numeric: true },
          { key: "p50", label: "p50", render: (r) => ms(r.p50Ms), sortValue: (r) => r.p50Ms ?? -1, numeric: true },
          { key: "p95", label: "p95", render: (r) => ms(r.p95Ms), sortValue: (r) => r.p95Ms ?? -1, numeric: true },
        ]}
      />
      <SortableTable<Tool>
        caption="By tool"
        testId="usage-tools"
        rows={report.tools}
        initialSort="calls"
        columns={[
          { key: "tool", label: "Tool", render: (r) => `${r.serverName} · ${r.name}`, sortValue: (r) => r.name },
          { key: "calls", label: "Calls", render: (r) => num(r.calls), sortValue: (r) => r.calls, numeric: true },
          { key: "errors", label: "Errors", render: (r) => num(r.errors), sortValue: (r) => r.errors, numeric: true },
          { key: "avg", label: "Average", render: (r) => ms(r.avgMs), sortValue: (r) => r.avgMs ?? -1, numeric: true },
        ]}
      />
    </div>
  );
}
