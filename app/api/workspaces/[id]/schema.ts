export { workspaceNameSchema as renameWorkspaceBody } from "@/lib/workspaces/service";
