export { invitationRegisterSchema as invitationRegisterBody } from "@/lib/workspaces/invitations";
