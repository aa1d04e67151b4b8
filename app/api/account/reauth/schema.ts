export { reauthSchema as reauthBody } from "@/lib/use-cases/second-factors";
