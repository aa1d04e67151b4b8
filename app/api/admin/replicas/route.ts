import { route } from "@/lib/http";
import { requireInstanceAdmin } from "@/lib/use-cases/caller";
import { instanceReplicas } from "@/lib/use-cases/replicas";

/** The app servers registered on this database: live ones and recently gone ones (instance administrators). */
export const GET = route(async () => {
  await requireInstanceAdmin();
  return Response.json(await instanceReplicas());
});
