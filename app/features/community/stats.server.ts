import { countCompleteMembers } from '~/features/members/members.server'
import { countPosts } from '~/features/feed/posts.server'

/** The stats panel of every community tab. Events and CEO sessions count once those features exist. */
export async function communityStats() {
  const [members, discussions] = await Promise.all([countCompleteMembers(), countPosts()])
  return { members, discussions, eventsThisMonth: 0, ceoSessions: 0 }
}
