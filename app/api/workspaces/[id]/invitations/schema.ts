export { invitationSchema as invitationBody } from "@/lib/workspaces/invitations";
