import { z } from "zod";

/** Body of an import: the registry names (`namespace/name`) of the servers to take with all their versions. */
export const importBody = z.object({ names: z.array(z.string().min(3).max(200)).min(1).max(100) }).strict();
