/**
 * Monthly budgets (docs/usage.md#budgets): the user's own (else the instance default) over all their
 * workspaces, and the workspace's over all its members, each in tokens or cents per UTC calendar
 * month. At 80% the chat shows a warning; at 100% new turns and sampling requests are refused.
 */
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { usageTotals } from "../../db/queries/usage-reports";
import { type BudgetRecord, budgetsFor } from "../../db/queries/usage-settings";
import type { ServerNotice } from "../domain/chat-message";
import { AppError } from "../errors";
import { LookupCache } from "../lookup-cache";

// Read before every chat turn: the budget rows (not what was spent) are cached under the change
// stamp, which a saved or removed budget moves (docs/performance.md).
const budgetRows = new LookupCache<BudgetRecord[]>(10_000);

/** Where a budget stands this month. */
export interface BudgetStanding {
  scope: BudgetRecord["scope"];
  unit: BudgetRecord["unit"];
  limit: number;
  used: number;
  /** used / limit */
  ratio: number;
  /** The first moment of next month (UTC), when the budget starts again. */
  resetsAt: Date;
}

/** The share of a budget at which the chat warns. */
export const BUDGET_WARNING_RATIO = 0.8;

/** The first day (`YYYY-MM-DD`) of `now`'s UTC month and the first moment of the next. */
export function monthOf(now: Date): { from: string; resetsAt: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { from: start.toISOString().slice(0, 10), resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** The budget of `userId` in `workspaceId` nearest to its limit this month, or null when none applies. */
export async function tightestBudget(db: Db, userId: string, workspaceId: string, now: Date = new Date()): Promise<BudgetStanding | null> {
  const budgets = await budgetRows.readAsync(`${userId}\u0000${workspaceId}`, generationOf(db), () => budgetsFor(db, userId, workspaceId));
  if (budgets.length === 0) return null;
  const { from, resetsAt } = monthOf(now);
  // The user's own budget replaces the instance default.
  const personal = budgets.find((b) => b.scope === "user") ?? budgets.find((b) => b.scope === "instance");
  const workspace = budgets.find((b) => b.scope === "workspace");
  const standings: BudgetStanding[] = [];
  for (const budget of [personal, workspace]) {
    if (!budget || budget.monthlyLimit <= 0) continue;
    const totals = await usageTotals(db, budget.scope === "workspace" ? { from, workspaceId } : { from, userId });
    const used = budget.unit === "tokens" ? totals.tokens : Math.floor(totals.costMicros / 10_000);
    standings.push({
      scope: budget.scope,
      unit: budget.unit,
      limit: budget.monthlyLimit,
      used,
      ratio: used / budget.monthlyLimit,
      resetsAt,
    });
  }
  return standings.sort((a, b) => b.ratio - a.ratio)[0] ?? null;
}

/** What a budget is called in messages. */
function budgetName(standing: BudgetStanding): string {
  const whose = standing.scope === "workspace" ? "This workspace's" : "Your";
  const amount = standing.unit === "tokens" ? `${standing.limit.toLocaleString("en-US")} tokens` : `$${(standing.limit / 100).toFixed(2)}`;
  return `${whose} monthly budget of ${amount}`;
}

/** Throw `usage.budget_exceeded` (429, with the reset date) when a budget of the caller is used up. */
export async function assertWithinBudget(
  db: Db,
  userId: string,
  workspaceId: string,
  now: Date = new Date(),
): Promise<BudgetStanding | null> {
  const standing = await tightestBudget(db, userId, workspaceId, now);
  if (standing && standing.ratio >= 1) {
    const retryAfter = Math.ceil((standing.resetsAt.getTime() - now.getTime()) / 1000);
    throw new AppError(
      "usage.budget_exceeded",
      `${budgetName(standing)} is used up; it resets on ${standing.resetsAt.toISOString().slice(0, 10)} (UTC).`,
      undefined,
      retryAfter,
    );
  }
  return standing;
}

/** The chat's warning text at 80% or more of a budget, else null. */
export function budgetWarning(standing: BudgetStanding | null): string | null {
  if (!standing || standing.ratio < BUDGET_WARNING_RATIO) return null;
  const percent = Math.min(99, Math.floor(standing.ratio * 100));
  return `${budgetName(standing)} is ${percent}% used; it resets on ${standing.resetsAt.toISOString().slice(0, 10)} (UTC).`;
}

/** The warning as the chat's notice part, or undefined under 80%. */
export function budgetWarningNotice(standing: BudgetStanding | null): ServerNotice | undefined {
  const text = budgetWarning(standing);
  return text ? { serverId: "usage:budget", serverName: "Usage", text } : undefined;
}
