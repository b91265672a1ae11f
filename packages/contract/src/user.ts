import { User } from './auth.ts'
import { Empty, type RouteDef, route } from './common.ts'

// The signed-in user.

export const userRoutes = {
  userIndex: route({
    path: '/user/user/index',
    auth: true,
    tag: 'user',
    summary: "The logged-in user's info",
    body: Empty,
    data: User,
  }),
} as const satisfies Record<string, RouteDef>
