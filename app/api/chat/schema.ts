export { chatRequestSchema as chatBody } from "@/lib/agent/chat-request";
