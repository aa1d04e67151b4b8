import { idParam, route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { syncUserNow } from "@/lib/use-cases/sso";

type Context = { params: Promise<{ id: string }> };

/** "Sync now": re-apply user `id`'s claim mappings from their latest sign-in → `{changes}`; needs a recent sign-in. */
export const POST = route(async (_request: Request, context: Context) => {
  const admin = await requireInstanceAdmin();
  return Response.json(await syncUserNow(admin, await idParam(context)));
});
