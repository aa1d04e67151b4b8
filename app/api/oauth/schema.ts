import { z } from "zod";
import { AppError } from "@/lib/errors";
import { readJson } from "@/lib/http";

/** Body of `POST /api/oauth/start` and `POST /api/oauth/disconnect`. */
export const serverRefBody = z.object({ serverId: z.string().min(1).max(200) }).strict();

/** Read `{serverId}` from a request, or a 400. */
export async function readServerRef(request: Request): Promise<{ serverId: string }> {
  const parsed = serverRefBody.safeParse(await readJson(request, 10_000));
  if (!parsed.success) throw new AppError("request.invalid", 'Expected {"serverId": "..."}.', "serverId");
  return parsed.data;
}
