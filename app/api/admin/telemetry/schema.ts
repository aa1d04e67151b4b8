export { telemetrySettingsSchema as telemetrySettingsBody } from "@/lib/use-cases/telemetry-settings";
