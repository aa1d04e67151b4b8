export { toolReviewSchema as toolReviewBody } from "@/lib/use-cases/trust-ops";
