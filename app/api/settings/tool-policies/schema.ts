export { toolPolicyUpdateSchema as toolPolicyBody } from "@/lib/use-cases/tool-policies";
