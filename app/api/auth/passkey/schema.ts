export { passkeyOptionsSchema as passkeyOptionsBody } from "@/lib/use-cases/passkeys";
