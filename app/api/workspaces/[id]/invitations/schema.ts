export { invitationSchema as invitationBody } from "@/lib/use-cases/workspaces";
