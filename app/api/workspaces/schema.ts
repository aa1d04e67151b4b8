export { workspaceNameSchema as createWorkspaceBody } from "@/lib/workspaces/service";
