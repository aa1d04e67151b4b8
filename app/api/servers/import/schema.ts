import { z } from "zod";

/** `POST /api/servers/import` body: the pasted text, values for its `${input:…}` references, and the names to save. */
export const importBody = z
  .object({
    text: z.string().min(1).max(500_000),
    inputs: z.record(z.string(), z.string().max(10_000)).optional(),
    confirm: z.array(z.string().min(1)).max(200).optional(),
  })
  .strict();
