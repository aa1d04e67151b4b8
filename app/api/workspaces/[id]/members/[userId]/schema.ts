export { memberRoleSchema as memberRoleBody } from "@/lib/workspaces/members";
