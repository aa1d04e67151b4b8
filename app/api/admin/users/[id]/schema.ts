export { updateUserSchema as updateUserBody } from "@/lib/workspaces/admin";
