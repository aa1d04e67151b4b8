export { toolSearchSettingsSchema as toolSearchBody } from "@/lib/agent/tool-search-settings";
