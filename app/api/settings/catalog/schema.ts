export { catalogSettingsSchema as catalogSettingsBody } from "@/lib/use-cases/catalog";
