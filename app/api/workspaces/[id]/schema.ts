export { workspaceNameSchema as renameWorkspaceBody } from "@/lib/use-cases/workspaces";
