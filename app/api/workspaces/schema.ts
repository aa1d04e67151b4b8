export { workspaceNameSchema as createWorkspaceBody } from "@/lib/use-cases/workspaces";
