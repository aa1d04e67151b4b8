import { route } from "@/lib/http";
import { requireUser } from "@/lib/use-cases/caller";
import { myFactors } from "@/lib/use-cases/second-factors";

/** The caller's second factors and how many recovery codes are left (never a secret). */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json(await myFactors(user));
});
