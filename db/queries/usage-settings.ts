/**
 * The price table and the monthly budgets (docs/usage.md): prices per (scope, provider, model) where
 * scope `*` is the instance and a workspace id that workspace's own; budgets per (scope, target).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../client";
import { usageBudgets, usagePrices } from "../schema";
import { gated } from "../transaction";
import { all, exec } from "../exec";
import { bumpGeneration } from "../generation";

/** The instance's price scope. */
export const INSTANCE_SCOPE = "*";

/** A stored price row. */
export type PriceRecord = typeof usagePrices.$inferSelect;
/** A stored budget row. */
export type BudgetRecord = typeof usageBudgets.$inferSelect;

/** The stored price of (provider, model) in the workspace's table, else the instance's, else undefined. */
export async function findPrice(db: Db, workspaceId: string, provider: string, model: string): Promise<PriceRecord | undefined> {
  return gated(db, async () => {
    const rows = await all(
      db
        .select()
        .from(usagePrices)
        .where(
          and(inArray(usagePrices.scope, [workspaceId, INSTANCE_SCOPE]), eq(usagePrices.provider, provider), eq(usagePrices.model, model)),
        ),
    );
    return rows.find((r) => r.scope === workspaceId) ?? rows.find((r) => r.scope === INSTANCE_SCOPE);
  });
}

/** The stored prices of one scope. */
export async function listPrices(db: Db, scope: string): Promise<PriceRecord[]> {
  return gated(db, async () => {
    return await all(db.select().from(usagePrices).where(eq(usagePrices.scope, scope)).orderBy(usagePrices.provider, usagePrices.model));
  });
}

/** Insert or replace one price. */
export async function upsertPrice(db: Db, row: Omit<PriceRecord, "updatedAt">): Promise<void> {
  return gated(db, async () => {
    const values = { ...row, updatedAt: new Date() };
    await exec(
      db
        .insert(usagePrices)
        .values(values)
        .onConflictDoUpdate({ target: [usagePrices.scope, usagePrices.provider, usagePrices.model], set: values }),
    );
  });
}

/** Remove one price (the default applies again); true when there was one. */
export async function deletePrice(db: Db, key: { scope: string; provider: string; model: string }): Promise<boolean> {
  return gated(db, async () => {
    const removed = await exec(
      db
        .delete(usagePrices)
        .where(and(eq(usagePrices.scope, key.scope), eq(usagePrices.provider, key.provider), eq(usagePrices.model, key.model))),
    );
    return removed > 0;
  });
}

/** The budgets that can apply to `userId` in `workspaceId`: theirs, the instance default, the workspace's. */
export async function budgetsFor(db: Db, userId: string, workspaceId: string): Promise<BudgetRecord[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select()
          .from(usageBudgets)
          .where(inArray(usageBudgets.targetId, [userId, workspaceId, INSTANCE_SCOPE])),
      )
    ).filter(
      (b) =>
        (b.scope === "user" && b.targetId === userId) ||
        (b.scope === "workspace" && b.targetId === workspaceId) ||
        (b.scope === "instance" && b.targetId === INSTANCE_SCOPE),
    );
  });
}

/** Every budget of one scope kind (all of them when `scope` is omitted). */
export async function listBudgets(db: Db, scope?: BudgetRecord["scope"]): Promise<BudgetRecord[]> {
  return gated(db, async () => {
    return await all(
      db
        .select()
        .from(usageBudgets)
        .where(scope ? eq(usageBudgets.scope, scope) : undefined),
    );
  });
}

/** Insert or replace one budget. */
export async function upsertBudget(db: Db, row: Omit<BudgetRecord, "updatedAt">): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    const values = { ...row, updatedAt: new Date() };
    await exec(
      db
        .insert(usageBudgets)
        .values(values)
        .onConflictDoUpdate({ target: [usageBudgets.scope, usageBudgets.targetId], set: values }),
    );
  });
}

/** Remove one budget; true when there was one. */
export async function deleteBudget(db: Db, key: { scope: BudgetRecord["scope"]; targetId: string }): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (await exec(db.delete(usageBudgets).where(and(eq(usageBudgets.scope, key.scope), eq(usageBudgets.targetId, key.targetId))))) > 0;
  });
}
