import { z } from "zod";

/** Query of the workspace catalog: `?q=` searches name, title, description, transport and `auth`. */
export const catalogQuery = z.object({ q: z.string().max(200).optional() });
