export { modelSettingsSchema as modelSettingsBody } from "@/lib/agent/settings-service";
