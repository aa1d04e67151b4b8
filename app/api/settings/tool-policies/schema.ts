export { toolPolicyUpdateSchema as toolPolicyBody } from "@/lib/trust/tool-policy-service";
