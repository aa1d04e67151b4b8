export { chatTitleSchema as renameChatBody } from "@/lib/agent/chat-service";
