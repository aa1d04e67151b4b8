"use client";
/**
 * The budgets on the Usage page: where the caller stands this month, and a form for the budgets
 * they may set (the workspace's for its owners and admins, the instance default for administrators).
 */
import { useEffect, useState } from "react";
import type { budgetsView } from "@/lib/use-cases/usage";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { parseLimit } from "./user-budgets";

type Budgets = Awaited<ReturnType<typeof budgetsView>>;
type Budget = Budgets["workspace"];

function describe(budget: Budget): string {
  if (!budget) return "none";
  return budget.unit === "tokens"
    ? `${budget.monthlyLimit.toLocaleString("en-US")} tokens a month`
    : `$${(budget.monthlyLimit / 100).toFixed(2)} a month`;
}

function BudgetForm({
  scope,
  budget,
  onSave,
}: {
  scope: "workspace" | "instance";
  budget: Budget;
  onSave: (body: unknown) => Promise<void>;
}) {
  const [unit, setUnit] = useState<"tokens" | "cents">(budget?.unit ?? "tokens");
  const [limit, setLimit] = useState(budget ? String(budget.unit === "cents" ? budget.monthlyLimit / 100 : budget.monthlyLimit) : "");
  const [error, setError] = useState<string | null>(null);
  const id = `budget-${scope}`;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // Empty removes the budget; anything else must be a positive amount (never NaN, which JSON sends as null: a removal).
    const monthlyLimit = limit.trim() === "" ? null : parseLimit(limit, unit);
    if (typeof monthlyLimit === "string") return setError(monthlyLimit);
    setError(null);
    await onSave({ scope, unit, monthlyLimit });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2" data-testid={`${id}-form`}>
      <div className="space-y-1">
        <Label htmlFor={`${id}-limit`}>{scope === "workspace" ? "Workspace budget" : "Default budget per user"}</Label>
        <Input
          id={`${id}-limit`}
          inputMode="decimal"
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
          placeholder="No budget"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-unit`}>Counted in</Label>
        <NativeSelect id={`${id}-unit`} value={unit} onChange={(e) => setUnit(e.target.value as "tokens" | "cents")}>
          <option value="tokens">tokens</option>
          <option value="cents">US dollars</option>
        </NativeSelect>
      </div>
      <Button type="submit" variant="secondary">
        Save
      </Button>
    </form>
  );
}

/** The panel; nothing until the budgets are read. */
export function BudgetPanel({ workspaceId }: { workspaceId: string }) {
  const [budgets, setBudgets] = useState<Budgets | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const path = `/api/workspaces/${encodeURIComponent(workspaceId)}/usage/budgets`;
  useEffect(() => {
    api<Budgets>(path).then(setBudgets, (e: unknown) => setMessage((e as Error).message));
  }, [path]);
  if (!budgets) return null;
  const save = async (body: unknown) => {
    try {
      setBudgets(await api<Budgets>(path, { method: "PUT", json: body }));
      setMessage("Saved.");
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const standing = budgets.standing;
  return (
    <section aria-labelledby="budgets-heading" className="space-y-3 rounded-md border border-border p-3" data-testid="usage-budgets">
      <h2 id="budgets-heading" className="text-base font-semibold">
        Monthly budgets
      </h2>
      <p className="text-sm">
        {standing
          ? `${Math.floor(standing.ratio * 100)}% of the ${standing.scope === "workspace" ? "workspace's" : "your"} budget used this month (${standing.used.toLocaleString("en-US")} of ${standing.limit.toLocaleString("en-US")} ${standing.unit}); it resets on ${standing.resetsAt.slice(0, 10)}.`
          : "No budget applies to you here."}
      </p>
      <p className="text-sm text-muted-foreground">This workspace: {describe(budgets.workspace)}.</p>
      {budgets.canSetWorkspace && <BudgetForm scope="workspace" budget={budgets.workspace} onSave={save} />}
      {budgets.canSetInstance && <BudgetForm scope="instance" budget={budgets.instance} onSave={save} />}
      {message && (
        <p role="status" className="text-sm text-muted-foreground">
          {message}
        </p>
      )}
    </section>
  );
}
