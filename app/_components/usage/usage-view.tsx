"use client";
/**
 * The Usage page (docs/usage.md#the-usage-pages): the caller's own usage, the workspace's (owners
 * and admins) or the instance's (administrators) over a range of days — totals, charts, sortable
 * tables, a CSV download of the same figures, and the budgets that apply.
 */
import { useEffect, useState } from "react";
import type { UsageReport } from "@/lib/usage/report";
import { api } from "../api-client";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { BudgetPanel } from "./budget-panel";
import { UsageCharts } from "./usage-charts";
import { UsageTables } from "./usage-tables";

type Scope = "me" | "workspace" | "instance";

/** Money as the pages show it: dollars with cents, or with four decimals under a cent. */
export function usd(micros: number): string {
  const value = micros / 1e6;
  return value > 0 && value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

/** The page for workspace `workspaceId`; which scopes are offered depends on the caller's roles. */
export function UsageView({
  workspaceId,
  canSeeWorkspace,
  canSeeInstance,
}: {
  workspaceId: string;
  canSeeWorkspace: boolean;
  canSeeInstance: boolean;
}) {
  const [scope, setScope] = useState<Scope>("me");
  const [from, setFrom] = useState(monthStart);
  const [to, setTo] = useState(today);
  const [report, setReport] = useState<UsageReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/workspaces/${encodeURIComponent(workspaceId)}/usage`;
  const query = new URLSearchParams({ scope, from, to }).toString();

  useEffect(() => {
    let current = true;
    api<UsageReport>(`${base}?${query}`).then(
      (next) => {
        if (!current) return;
        setReport(next);
        setError(null);
      },
      (e: unknown) => current && setError((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [base, query]);

  const totals = report?.totals;
  return (
    <div className="min-w-0 space-y-6" data-testid="usage-view">
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <Label htmlFor="usage-scope">Whose usage</Label>
          <NativeSelect id="usage-scope" value={scope} onChange={(e) => setScope(e.target.value as Scope)}>
            <option value="me">Mine</option>
            {canSeeWorkspace && <option value="workspace">This workspace</option>}
            {canSeeInstance && <option value="instance">The whole instance</option>}
          </NativeSelect>
        </div>
        <div className="space-y-1">
          <Label htmlFor="usage-from">From</Label>
          <Input id="usage-from" type="date" value={from} max={to} onChange={(e) => e.target.value && setFrom(e.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor="usage-to">To</Label>
          <Input id="usage-to" type="date" value={to} min={from} onChange={(e) => e.target.value && setTo(e.target.value)} />
        </div>
        <a
          href={`${base}?${query}&format=csv`}
          download
          data-testid="usage-csv"
          className="inline-flex h-9 items-center rounded-md border border-border px-3 text-sm font-medium hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Download CSV
        </a>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {totals && (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="usage-totals">
          {[
            ["Tokens in", totals.inputTokens.toLocaleString("en-US")],
            ["Tokens out", totals.outputTokens.toLocaleString("en-US")],
            ["Cost", usd(totals.costMicros)],
            ["Tool calls", `${totals.mcpCalls.toLocaleString("en-US")} (${totals.mcpErrors} failed)`],
          ].map(([label, value]) => (
            <div key={label} className="rounded-md border border-border p-3">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {report && <UsageCharts report={report} />}
      {report && <UsageTables report={report} />}
      <BudgetPanel workspaceId={workspaceId} />
    </div>
  );
}
