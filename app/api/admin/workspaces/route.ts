import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { route } from "@/lib/http";
import { instanceWorkspaces } from "@/lib/use-cases/admin";

/** Every workspace with its member count (instance administrators). */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(await instanceWorkspaces());
});
