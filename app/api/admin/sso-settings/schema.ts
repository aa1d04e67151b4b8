export { ssoOnlySchema as ssoSettingsBody } from "@/lib/use-cases/sso";
