export { auditQuerySchema as auditQuery } from "@/lib/workspaces/admin";
