export { createUserSchema as createUserBody, userSearchSchema as userSearchQuery } from "@/lib/workspaces/admin";
