export { startTotpSchema as startTotpBody } from "@/lib/use-cases/second-factors";
