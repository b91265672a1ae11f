/** The invite link of a user: the app's home with their address as the code (SPEC §1: code pre-fills the bind input). */
export const inviteLink = (origin: string, address: string) => `${origin}/?code=${encodeURIComponent(address)}`
