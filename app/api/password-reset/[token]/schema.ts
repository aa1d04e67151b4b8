export { passwordResetSchema as passwordResetBody } from "@/lib/use-cases/mail-links";
