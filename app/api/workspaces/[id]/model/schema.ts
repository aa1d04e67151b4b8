export { modelSettingsSchema as workspaceModelBody } from "@/lib/agent/settings-service";
