import { requireWorkspace } from "@/lib/use-cases/caller";
import { subscribeResource, unsubscribeResource } from "@/lib/use-cases/resource-subscriptions";
import { idParam, parseJson, route } from "@/lib/http";
import { subscribeBody } from "./schema";

type Context = { params: Promise<{ id: string }> };

/** Subscribe to a resource's updates; they arrive as `resource_updated` events on `GET /api/events`. */
export const POST = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, subscribeBody);
  return Response.json(await subscribeResource(caller, await idParam(context), body.uri));
});

/** End a resource subscription. */
export const DELETE = route(async (request: Request, context: Context) => {
  const caller = await requireWorkspace(request);
  const body = await parseJson(request, subscribeBody);
  return Response.json(await unsubscribeResource(caller, await idParam(context), body.uri));
});
