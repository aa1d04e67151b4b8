export { forgotPasswordSchema as forgotPasswordBody } from "@/lib/use-cases/mail-links";
