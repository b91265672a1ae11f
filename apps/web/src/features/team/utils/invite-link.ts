/** A user's invite link: the app's home with their address as the code for the bind input (docs/product.md#binding). */
export const inviteLink = (origin: string, address: string) => `${origin}/?code=${encodeURIComponent(address)}`
