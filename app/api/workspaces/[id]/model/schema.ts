export { modelSettingsSchema as workspaceModelBody } from "@/lib/models/settings-service";
