export { modelSettingsSchema as modelSettingsBody } from "@/lib/use-cases/account";
