"use client";
/**
 * Per-user monthly budgets for instance administrators (docs/usage.md#budgets): every user's own
 * budget (it replaces the instance default for them), removable, and a form to set one for any
 * user in tokens or US dollars. Each change is audited by the server.
 */
import { useCallback, useEffect, useState } from "react";
import type { budgetsView } from "@/lib/use-cases/usage";
import { api, ApiError } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { ScrollX } from "../ui/primitives/scroll-x";
import { NativeSelect } from "../ui/primitives/select";

type Budgets = Awaited<ReturnType<typeof budgetsView>>;
type UserBudget = Budgets["users"][number];
interface User {
  id: string;
  email: string;
  name: string;
}

/** A budget's limit as people read it. */
export function budgetAmount(budget: { unit: "tokens" | "cents"; monthlyLimit: number }): string {
  return budget.unit === "tokens" ? `${budget.monthlyLimit.toLocaleString("en-US")} tokens` : `$${(budget.monthlyLimit / 100).toFixed(2)}`;
}

/** The limit typed in the form as the API's integer (tokens, or cents from dollars), or an error text. */
export function parseLimit(text: string, unit: "tokens" | "cents"): number | string {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0) return "A number above 0.";
  const limit = Math.round(unit === "cents" ? value * 100 : value);
  if (limit < 1 || limit > 2_000_000_000) return "Too large a budget.";
  return limit;
}

/** The administrators' per-user budgets, through workspace `workspaceId`'s budgets API. */
export function UserBudgets({ workspaceId }: { workspaceId: string }) {
  const path = `/api/workspaces/${encodeURIComponent(workspaceId)}/usage/budgets`;
  const [budgets, setBudgets] = useState<Budgets | null>(null);
  const [users, setUsers] = useState<User[]>([]);
  const [form, setForm] = useState<{ targetId: string; unit: "tokens" | "cents"; limit: string }>({
    targetId: "",
    unit: "tokens",
    limit: "",
  });
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setBudgets(await api<Budgets>(path));
      setUsers((await api<{ users: User[] }>("/api/admin/users")).users);
    } catch (e) {
      setMessage((e as Error).message);
    }
  }, [path]);
  useEffect(() => {
    void load();
  }, [load]);

  const send = async (body: Record<string, unknown>, done: string) => {
    try {
      setBudgets(await api<Budgets>(path, { method: "PUT", json: { scope: "user", ...body } }));
      setMessage(done);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.field) setError(e.message);
      setMessage(e instanceof Error ? e.message : String(e));
      return false;
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const limit = parseLimit(form.limit, form.unit);
    const who = users.find((u) => u.id === form.targetId);
    if (!who) return setError("Choose a user.");
    if (typeof limit === "string") return setError(limit);
    setError(null);
    if (await send({ targetId: who.id, unit: form.unit, monthlyLimit: limit }, `Saved the budget of ${who.email}.`))
      setForm({ ...form, limit: "" });
  };

  if (!budgets) return message ? <p className="text-sm text-destructive">{message}</p> : null;
  const remove = (b: UserBudget) =>
    void send({ targetId: b.targetId, unit: b.unit, monthlyLimit: null }, `Removed the budget of ${b.email ?? b.targetId}.`);
  return (
    <section aria-labelledby="user-budgets-heading" className="space-y-3 rounded-md border border-border p-3" data-testid="user-budgets">
      <h2 id="user-budgets-heading" className="text-base font-semibold">
        Budgets per user
      </h2>
      <p className="text-sm text-muted-foreground">
        A user&apos;s own monthly budget over all their workspaces; it replaces the default budget per user. Default:{" "}
        {budgets.instance ? `${budgetAmount(budgets.instance)} a month` : "none"}.
      </p>
      {budgets.users.length ? (
        <ScrollX label="Budgets per user">
          <table className="w-full text-sm">
            <caption className="sr-only">Budgets per user</caption>
            <thead>
              <tr className="text-left text-muted-foreground">
                <th scope="col">User</th>
                <th scope="col" className="text-right">
                  Monthly budget
                </th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {budgets.users.map((b) => (
                <tr key={b.targetId} data-testid={`user-budget-${b.email ?? b.targetId}`}>
                  <td className="break-all">
                    {b.name ?? "(deleted user)"} <span className="text-muted-foreground">{b.email}</span>
                  </td>
                  <td className="text-right">{budgetAmount(b)}</td>
                  <td className="text-right">
                    <Button type="button" size="sm" variant="secondary" onClick={() => remove(b)}>
                      Remove<span className="sr-only"> the budget of {b.email ?? b.targetId}</span>
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      ) : (
        <p className="text-sm">No user has a budget of their own.</p>
      )}
      <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-2" data-testid="user-budget-form">
        <div className="min-w-0 flex-1 basis-48 space-y-1">
          <Label htmlFor="user-budget-user">User</Label>
          <NativeSelect id="user-budget-user" value={form.targetId} onChange={(e) => setForm({ ...form, targetId: e.target.value })}>
            <option value="">Choose a user</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="min-w-0 flex-1 basis-28 space-y-1">
          <Label htmlFor="user-budget-limit">Monthly limit</Label>
          <Input
            id="user-budget-limit"
            inputMode="decimal"
            value={form.limit}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "user-budget-error" : undefined}
            onChange={(e) => setForm({ ...form, limit: e.target.value })}
          />
        </div>
        <div className="min-w-0 flex-1 basis-28 space-y-1">
          <Label htmlFor="user-budget-unit">Counted in</Label>
          <NativeSelect
            id="user-budget-unit"
            value={form.unit}
            onChange={(e) => setForm({ ...form, unit: e.target.value as "tokens" | "cents" })}
          >
            <option value="tokens">tokens</option>
            <option value="cents">US dollars</option>
          </NativeSelect>
        </div>
        <Button type="submit" className="self-end">
          Save budget
        </Button>
      </form>
      {error && <FieldError id="user-budget-error">{error}</FieldError>}
      {message && (
        <p role="status" className="text-sm text-muted-foreground">
          {message}
        </p>
      )}
    </section>
  );
}
