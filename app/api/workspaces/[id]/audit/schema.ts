export { auditQuerySchema as auditQuery } from "@/lib/use-cases/workspaces";
