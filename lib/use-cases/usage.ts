/**
 * The Usage pages' use cases (docs/usage.md): a person's own usage, a workspace's (owners and
 * admins, also one member's), the instance's (instance administrators), as JSON or CSV; and the
 * budgets and prices administrators set, each change audited. Another member's usage is a 404.
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getUserById } from "../../db/queries/users";
import { getMembershipRole } from "../../db/queries/workspaces";
import {
  deleteBudget,
  deletePrice,
  INSTANCE_SCOPE,
  listBudgets,
  listPrices,
  upsertBudget,
  upsertPrice,
} from "../../db/queries/usage-settings";
import type { WorkspaceCaller } from "../auth/workspace";
import { AppError } from "../errors";
import { PROVIDERS } from "../models/model-config";
import { monthOf, tightestBudget } from "../usage/budgets";
import { DEFAULT_PRICES } from "../usage/prices";
import { usageCsv, usageReport } from "../usage/report";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a day as YYYY-MM-DD");

/** Query of `GET /api/workspaces/:id/usage`. */
export const usageQuerySchema = z.object({
  scope: z.enum(["me", "workspace", "instance"]).default("me"),
  member: z.string().min(1).max(200).optional(),
  from: day.optional(),
  to: day.optional(),
  format: z.enum(["json", "csv"]).default("json"),
});

/** The report's scope for the caller, or a 404/403 when they may not read it. */
async function scopeFor(caller: WorkspaceCaller, query: z.infer<typeof usageQuerySchema>) {
  const now = new Date();
  const from = query.from ?? monthOf(now).from;
  const to = query.to ?? now.toISOString().slice(0, 10);
  if (from > to) throw new AppError("request.invalid", "The range starts after it ends.", "from");
  if (query.scope === "me") return { from, to, userId: caller.id };
  if (query.scope === "instance") {
    if (!caller.isAdmin) throw new AppError("auth.forbidden", "Only instance administrators see the whole instance's usage.");
    return { from, to, userId: query.member };
  }
  const isAdmin = caller.role !== "member";
  if (query.member && query.member !== caller.id) {
    // Another member's usage: only owners and admins, and only of a member of this workspace; else it does not exist.
    if (!isAdmin || !(await getMembershipRole(getDb(), caller.workspaceId, query.member)))
      throw new AppError("workspace.member_not_found", "No such member.");
    return { from, to, workspaceId: caller.workspaceId, userId: query.member };
  }
  if (!isAdmin && !query.member) throw new AppError("auth.forbidden", "Only the workspace's owners and admins see its usage.");
  return { from, to, workspaceId: caller.workspaceId, userId: query.member };
}

/** The page's figures as JSON, or as a CSV download (`format=csv`). */
export async function usageResponse(caller: WorkspaceCaller, query: z.infer<typeof usageQuerySchema>): Promise<Response> {
  const scope = await scopeFor(caller, query);
  const report = await usageReport(getDb(), scope);
  if (query.format === "csv") {
    return new Response(usageCsv(report), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="usage-${query.scope}-${scope.from}-${scope.to}.csv"`,
        "cache-control": "no-store",
      },
    });
  }
  const budget = await tightestBudget(getDb(), caller.id, caller.workspaceId);
  return Response.json({ scope: query.scope, ...report, budget: budget && { ...budget, resetsAt: budget.resetsAt.toISOString() } });
}

/** Body of `PUT /api/workspaces/:id/usage/budgets`: a limit, or `null` to remove the budget. */
export const budgetBodySchema = z.object({
  scope: z.enum(["workspace", "user", "instance"]),
  /** The user's id for a `user` budget. */
  targetId: z.string().min(1).max(200).optional(),
  unit: z.enum(["tokens", "cents"]),
  monthlyLimit: z.number().int().min(1).max(2_000_000_000).nullable(),
});

/** The budgets the caller may see and set: the workspace's; an instance administrator's also the default and every user's. */
export async function budgetsView(caller: WorkspaceCaller) {
  const db = getDb();
  const all = await listBudgets(db);
  const standing = await tightestBudget(db, caller.id, caller.workspaceId);
  // Each user's budget names its user, so the administrators' list reads as people, not ids.
  const users = caller.isAdmin
    ? (
        await Promise.all(
          all
            .filter((b) => b.scope === "user")
            .map(async (b) => {
              const user = await getUserById(db, b.targetId);
              return { ...b, email: user?.email ?? null, name: user?.name ?? null };
            }),
        )
      ).sort((a, b) => (a.email ?? a.targetId).localeCompare(b.email ?? b.targetId))
    : [];
  return {
    workspace: all.find((b) => b.scope === "workspace" && b.targetId === caller.workspaceId) ?? null,
    instance: caller.isAdmin ? (all.find((b) => b.scope === "instance") ?? null) : null,
    users,
    standing: standing && { ...standing, resetsAt: standing.resetsAt.toISOString() },
    canSetWorkspace: caller.role !== "member",
    canSetInstance: caller.isAdmin,
  };
}

/** Set or remove one budget: the workspace's by its owners/admins, a user's or the default by instance administrators; audited. */
export async function setBudget(caller: WorkspaceCaller, body: z.infer<typeof budgetBodySchema>) {
  const db = getDb();
  let targetId: string;
  if (body.scope === "workspace") {
    if (caller.role === "member") throw new AppError("auth.forbidden", "Only the workspace's owners and admins set its budget.");
    targetId = caller.workspaceId;
  } else {
    if (!caller.isAdmin) throw new AppError("auth.forbidden", "Only instance administrators set user and default budgets.");
    if (body.scope === "instance") targetId = INSTANCE_SCOPE;
    else {
      if (!body.targetId || !(await getUserById(db, body.targetId))) throw new AppError("user.not_found", "No such user.", "targetId");
      targetId = body.targetId;
    }
  }
  if (body.monthlyLimit === null) await deleteBudget(db, { scope: body.scope, targetId });
  else await upsertBudget(db, { scope: body.scope, targetId, unit: body.unit, monthlyLimit: body.monthlyLimit, updatedBy: caller.id });
  await recordAudit(db, {
    actorId: caller.id,
    workspaceId: body.scope === "workspace" ? caller.workspaceId : null,
    action: body.monthlyLimit === null ? "usage.budget_removed" : "usage.budget_set",
    target: targetId,
    detail: { scope: body.scope, unit: body.unit, monthlyLimit: body.monthlyLimit },
  });
  return await budgetsView(caller);
}

const usdPerM = z.number().min(0).max(10_000);

/** Body of `PUT /api/workspaces/:id/usage/prices`: USD per million tokens, or `remove` to fall back. */
export const priceBodySchema = z.object({
  scope: z.enum(["instance", "workspace"]),
  /** One of the supported providers: a price under any other name would never be looked up. */
  provider: z.enum(PROVIDERS as [string, ...string[]]),
  /** The model id as the provider names it (a prefix of it is not matched: defaults only). */
  model: z
    .string()
    .trim()
    .min(1, "Name the model.")
    .max(200)
    .regex(/^[^\s\p{Cc}]+$/u, "A model id has no spaces or control characters."),
  input: usdPerM.optional(),
  output: usdPerM.optional(),
  cached: usdPerM.optional(),
  remove: z.boolean().optional(),
});

const asUsd = (micros: number) => micros / 1e6;

/** The price tables the caller sees: the defaults, the instance's and this workspace's own. */
export async function pricesView(caller: WorkspaceCaller) {
  const db = getDb();
  const rows = async (scope: string) =>
    (await listPrices(db, scope)).map((p) => ({
      provider: p.provider,
      model: p.model,
      input: asUsd(p.inputMicrosPerM),
      output: asUsd(p.outputMicrosPerM),
      cached: asUsd(p.cachedMicrosPerM),
      updatedAt: p.updatedAt.toISOString(),
    }));
  const defaults = Object.entries(DEFAULT_PRICES).flatMap(([provider, models]) =>
    Object.entries(models).map(([model, p]) => ({
      provider,
      model,
      input: asUsd(p.inputMicrosPerM),
      output: asUsd(p.outputMicrosPerM),
      cached: asUsd(p.cachedMicrosPerM),
    })),
  );
  return {
    defaults,
    instance: await rows(INSTANCE_SCOPE),
    workspace: await rows(caller.workspaceId),
    canSetInstance: caller.isAdmin,
    canSetWorkspace: caller.role !== "member",
  };
}

/** Set or remove one price (instance: administrators; workspace: its owners/admins, for its own keys); audited. Costs already recorded keep theirs. */
export async function setPrice(caller: WorkspaceCaller, body: z.infer<typeof priceBodySchema>) {
  const db = getDb();
  if (body.scope === "instance" ? !caller.isAdmin : caller.role === "member")
    throw new AppError("auth.forbidden", "Only administrators set prices.");
  const scope = body.scope === "instance" ? INSTANCE_SCOPE : caller.workspaceId;
  if (body.remove) await deletePrice(db, { scope, provider: body.provider, model: body.model });
  else {
    if (body.input === undefined || body.output === undefined)
      throw new AppError("request.invalid", "A price needs input and output per million tokens.", "input");
    await upsertPrice(db, {
      scope,
      provider: body.provider,
      model: body.model,
      inputMicrosPerM: Math.round(body.input * 1e6),
      outputMicrosPerM: Math.round(body.output * 1e6),
      cachedMicrosPerM: Math.round((body.cached ?? body.input) * 1e6),
      updatedBy: caller.id,
    });
  }
  await recordAudit(db, {
    actorId: caller.id,
    workspaceId: body.scope === "workspace" ? caller.workspaceId : null,
    action: body.remove ? "usage.price_removed" : "usage.price_set",
    target: `${body.provider}/${body.model}`,
    detail: { scope: body.scope, input: body.input, output: body.output, cached: body.cached },
  });
  return await pricesView(caller);
}
