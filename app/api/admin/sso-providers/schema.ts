export { ssoProviderSchema as ssoProviderBody, ssoProviderUpdateSchema as ssoProviderUpdateBody } from "@/lib/use-cases/sso";
