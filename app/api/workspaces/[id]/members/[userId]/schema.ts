export { memberRoleSchema as memberRoleBody } from "@/lib/use-cases/workspaces";
