/**
 * Prices and budgets as the Usage settings screens change them (docs/usage.md#prices, #budgets),
 * through the use cases their routes call: who may set which, what the body may hold, the audit of
 * every change, the per-user budgets listed with their people, and a price edit that leaves the
 * costs recorded before it as they were.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { upsertMembership } from "@/db/queries/memberships";
import { flushUsage } from "@/db/queries/usage-rows";
import { getPersonalWorkspaceId, getWorkspaceById } from "@/db/queries/workspaces";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { usageModelRequests } from "@/db/schema";
import type { WorkspaceCaller } from "@/lib/auth/workspace";
import { recordModelUsage } from "@/lib/usage/record";
import { tightestBudget } from "@/lib/usage/budgets";
import { budgetBodySchema, budgetsView, priceBodySchema, pricesView, setBudget, setPrice } from "@/lib/use-cases/usage";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, type Person } from "../workspaces/helpers";
import { all } from "../../../db/exec";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

let dir = "";
let admin: Person;
let owner: Person;
let member: Person;
let teamId = "";

/** A caller as `requireWorkspaceById` builds it. */
async function caller(who: Person, workspaceId: string, role: WorkspaceCaller["role"], isAdmin = false): Promise<WorkspaceCaller> {
  return {
    id: who.id,
    email: who.email,
    name: who.name,
    isAdmin,
    workspaceId,
    role,
    workspace: (await getWorkspaceById(getDb(), workspaceId))!,
  } as WorkspaceCaller;
}

const asAdmin = async () => await caller(admin, admin.personalWorkspaceId, "owner", true);
const asOwner = async () => await caller(owner, teamId, "owner");
const asMember = async () => await caller(member, teamId, "member");
const price = (body: Record<string, unknown>) => priceBodySchema.parse(body);
const budget = (body: Record<string, unknown>) => budgetBodySchema.parse(body);
const lastAudit = async (action: string) => (await listRecentAudit(getDb())).find((e) => e.action === action);

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@example.com"); // the first account: the instance administrator
  owner = await person("owner@example.com");
  member = await person("member@example.com");
  teamId = (await createTeamWorkspace(getDb(), { name: "Team", slug: "team", ownerId: owner.id })).id;
  await upsertMembership(getDb(), { workspaceId: teamId, userId: member.id, role: "member" });
});
afterAll(() => removeTempDataDir(dir));

describe("the price table", () => {
  it("takes only a supported provider, a model id and amounts from 0 to 10,000", async () => {
    const ok = { scope: "instance", provider: "openai", model: "gpt-x", input: 1, output: 2 };
    expect(priceBodySchema.safeParse(ok).success).toBe(true);
    expect(priceBodySchema.safeParse({ ...ok, provider: "acme" }).success).toBe(false);
    expect(priceBodySchema.safeParse({ ...ok, model: "   " }).success).toBe(false);
    expect(priceBodySchema.safeParse({ ...ok, model: "gpt x" }).success).toBe(false);
    expect(priceBodySchema.safeParse({ ...ok, input: -1 }).success).toBe(false);
    expect(priceBodySchema.safeParse({ ...ok, output: 10_001 }).success).toBe(false);
    await expect(setPrice(await asAdmin(), price({ scope: "instance", provider: "openai", model: "gpt-x", input: 1 }))).rejects.toThrow(
      expect.objectContaining({ code: "request.invalid", field: "input" }),
    );
  });

  it("the instance's is the administrators', a workspace's its owners' and admins'; each change audited", async () => {
    await expect(
      setPrice(await asOwner(), price({ scope: "instance", provider: "openai", model: "gpt-x", input: 1, output: 2 })),
    ).rejects.toThrow(expect.objectContaining({ code: "auth.forbidden" }));
    await expect(
      setPrice(await asMember(), price({ scope: "workspace", provider: "openai", model: "gpt-x", input: 1, output: 2 })),
    ).rejects.toThrow(expect.objectContaining({ code: "auth.forbidden" }));

    const view = await setPrice(
      await asAdmin(),
      price({ scope: "instance", provider: "anthropic", model: "claude-x", input: 3, output: 15, cached: 0.3 }),
    );
    expect(view.instance).toEqual([
      expect.objectContaining({ provider: "anthropic", model: "claude-x", input: 3, output: 15, cached: 0.3 }),
    ]);
    expect(await lastAudit("usage.price_set")).toMatchObject({ actorId: admin.id, workspaceId: null, target: "anthropic/claude-x" });

    const own = await setPrice(
      await asOwner(),
      price({ scope: "workspace", provider: "openai-compatible", model: "local", input: 0.5, output: 1 }),
    );
    // Cached input defaults to the input price.
    expect(own.workspace).toEqual([expect.objectContaining({ model: "local", input: 0.5, output: 1, cached: 0.5 })]);
    expect(own.instance.map((p) => p.model)).toEqual(["claude-x"]);
    expect(await lastAudit("usage.price_set")).toMatchObject({ actorId: owner.id, workspaceId: teamId, target: "openai-compatible/local" });
    // A member reads the tables, but may set neither.
    expect(await pricesView(await asMember())).toMatchObject({
      canSetInstance: false,
      canSetWorkspace: false,
      workspace: [expect.anything()],
    });

    const removed = await setPrice(
      await asOwner(),
      price({ scope: "workspace", provider: "openai-compatible", model: "local", remove: true }),
    );
    expect(removed.workspace).toEqual([]);
    expect(await lastAudit("usage.price_removed")).toMatchObject({ actorId: owner.id, target: "openai-compatible/local" });
  });

  it("an edit prices the requests recorded after it; costs recorded before keep theirs", async () => {
    const request = async (at: Date) =>
      await recordModelUsage(
        getDb(),
        {
          userId: member.id,
          workspaceId: teamId,
          source: "chat",
          provider: "openai.chat",
          model: "priced-model",
          usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 },
          latencyMs: 5,
          outcome: "ok",
        },
        at,
      );
    await setPrice(await asAdmin(), price({ scope: "instance", provider: "openai", model: "priced-model", input: 1, output: 2 }));
    await request(new Date(Date.now() - 1000));
    await setPrice(await asAdmin(), price({ scope: "instance", provider: "openai", model: "priced-model", input: 10, output: 20 }));
    await request(new Date());
    await setPrice(await asOwner(), price({ scope: "workspace", provider: "openai", model: "priced-model", input: 100, output: 200 }));
    await request(new Date(Date.now() + 1000));
    await flushUsage(getDb());
    const rows = await all(
      getDb().select().from(usageModelRequests).where(eq(usageModelRequests.model, "priced-model")).orderBy(usageModelRequests.at),
    );
    // $1 + $2, then $10 + $20, then the workspace's own $100 + $200, in micro-dollars.
    expect(rows.map((r) => r.costMicros)).toEqual([3_000_000, 30_000_000, 300_000_000]);
  });
});

describe("budgets", () => {
  it("per user and the default are the administrators'; listed with their people; audited", async () => {
    await expect(
      setBudget(await asOwner(), budget({ scope: "user", targetId: member.id, unit: "tokens", monthlyLimit: 10 })),
    ).rejects.toThrow(expect.objectContaining({ code: "auth.forbidden" }));
    await expect(
      setBudget(await asAdmin(), budget({ scope: "user", targetId: "no-such-user", unit: "tokens", monthlyLimit: 10 })),
    ).rejects.toThrow(expect.objectContaining({ code: "user.not_found" }));
    expect(budgetBodySchema.safeParse({ scope: "user", targetId: member.id, unit: "tokens", monthlyLimit: 0 }).success).toBe(false);
    expect(budgetBodySchema.safeParse({ scope: "user", targetId: member.id, unit: "euros", monthlyLimit: 5 }).success).toBe(false);

    const view = await setBudget(await asAdmin(), budget({ scope: "user", targetId: member.id, unit: "cents", monthlyLimit: 2500 }));
    expect(view.users).toEqual([expect.objectContaining({ targetId: member.id, email: member.email, unit: "cents", monthlyLimit: 2500 })]);
    expect(await lastAudit("usage.budget_set")).toMatchObject({ actorId: admin.id, target: member.id });
    expect((await lastAudit("usage.budget_set"))?.detail).toMatchObject({ scope: "user", unit: "cents", monthlyLimit: 2500 });
    // The member's own budget is the one that applies to them, wherever they work.
    expect(await tightestBudget(getDb(), member.id, teamId)).toMatchObject({ scope: "user", unit: "cents", limit: 2500 });

    await setBudget(await asAdmin(), budget({ scope: "instance", unit: "tokens", monthlyLimit: 1_000_000 }));
    expect(await lastAudit("usage.budget_set")).toMatchObject({ target: "*" });
    expect(await tightestBudget(getDb(), owner.id, (await getPersonalWorkspaceId(getDb(), owner.id))!)).toMatchObject({
      scope: "instance",
      limit: 1_000_000,
    });

    // Only administrators see the list of users' budgets.
    expect((await budgetsView(await asOwner())).users).toEqual([]);
    const removed = await setBudget(await asAdmin(), budget({ scope: "user", targetId: member.id, unit: "cents", monthlyLimit: null }));
    expect(removed.users).toEqual([]);
    expect(await lastAudit("usage.budget_removed")).toMatchObject({ actorId: admin.id, target: member.id });
    expect(await tightestBudget(getDb(), member.id, teamId)).toMatchObject({ scope: "instance" });
  });

  it("a workspace's is its owners' and admins', not its members'", async () => {
    await expect(setBudget(await asMember(), budget({ scope: "workspace", unit: "tokens", monthlyLimit: 10 }))).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
    const view = await setBudget(await asOwner(), budget({ scope: "workspace", unit: "tokens", monthlyLimit: 5000 }));
    expect(view.workspace).toMatchObject({ targetId: teamId, monthlyLimit: 5000 });
    expect(await lastAudit("usage.budget_set")).toMatchObject({ actorId: owner.id, workspaceId: teamId, target: teamId });
  });
});
