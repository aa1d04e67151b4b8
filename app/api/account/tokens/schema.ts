export { createTokenSchema as createTokenBody } from "@/lib/use-cases/personal-tokens";
