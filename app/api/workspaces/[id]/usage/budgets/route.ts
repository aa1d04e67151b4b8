import { requireWorkspaceById } from "@/lib/use-cases/caller";
import { idParam, parseJson, route } from "@/lib/http";
import { budgetsView, setBudget } from "@/lib/use-cases/usage";
import { budgetBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** The monthly budgets the caller may see, and where they stand this month. */
export const GET = route(async (_request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(await budgetsView(caller));
});

/** Set or remove a budget (the workspace's: owners/admins; a user's or the default: instance administrators); audited. */
export const PUT = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspaceById(await idParam(context));
  return Response.json(await setBudget(caller, await parseJson(request, budgetBody)));
});
