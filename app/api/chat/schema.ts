export { chatRequestSchema as chatBody } from "@/lib/use-cases/chat-turn";
