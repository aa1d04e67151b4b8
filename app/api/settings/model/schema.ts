export { modelSettingsSchema as modelSettingsBody } from "@/lib/models/settings-service";
