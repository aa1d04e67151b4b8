import { z } from "zod";

/** Body of a catalog upload: `{serverJson}`, the document as pasted or read from a file (validated by the use case, field by field). */
export const serverJsonBody = z.object({ serverJson: z.unknown() }).strict();
