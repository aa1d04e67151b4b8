export { mfaPolicySchema as mfaPolicyBody } from "@/lib/use-cases/second-factors";
