export { confirmPasskeySchema as confirmPasskeyBody } from "@/lib/use-cases/passkeys";
