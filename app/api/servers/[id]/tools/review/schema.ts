export { toolReviewSchema as toolReviewBody } from "@/lib/trust/trust-service";
