export { chatTitleSchema as renameChatBody } from "@/lib/use-cases/chats";
