export { toolPolicyUpdateSchema as toolPolicyBody } from "@/lib/agent/tool-policy-service";
