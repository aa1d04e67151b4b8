import { readJson, route } from "@/lib/http";
import { changePassword } from "@/lib/use-cases/account";
import { requireUser } from "@/lib/use-cases/caller";

/** Change the caller's password; their other sessions end. */
export const POST = route(async (request: Request) => {
  const user = await requireUser();
  const body = await readJson(request);
  return Response.json(await changePassword(user, request, body));
});
