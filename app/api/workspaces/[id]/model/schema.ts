export { modelSettingsSchema as workspaceModelBody } from "@/lib/use-cases/workspaces";
