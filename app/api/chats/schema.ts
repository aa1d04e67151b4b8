import { z } from "zod";

/** Body of `POST /api/chats`. */
export const createChatBody = z.object({ title: z.string().trim().max(200).optional() });
