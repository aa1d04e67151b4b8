export { confirmTotpSchema as confirmTotpBody } from "@/lib/use-cases/second-factors";
