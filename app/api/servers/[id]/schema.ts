/** Body of `PATCH /api/servers/:id`: any of `name`, `config`, `memberKeys`, parsed as a new server's are. */
export { serverChangeSchema as serverChangeBody } from "@/lib/use-cases/saved-servers";
