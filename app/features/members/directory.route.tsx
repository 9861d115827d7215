import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { displayName } from '~/features/account/display-name'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { formatMonthYear } from '~/platform/dates'
import { readQuery } from '~/platform/http/query'
import { MemberDirectory } from './components/member-directory'
import { listDirectory } from './members.server'
import type { Route } from './+types/directory.route'
import { PartErrorBoundary } from '~/ui/error-boundary'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  // Premium content is never sent to members without access, not merely hidden.
  if (!user.hasAccess) return { directory: null }
  const read = readQuery(new URL(request.url).searchParams)
  const [search, company, position, page] = [read.text('q'), read.text('empresa'), read.text('cargo'), read.page()]
  const result = await listDirectory({ search, company, position, page })
  return {
    directory: {
      viewerId: user.id,
      members: result.members.map((member) => ({
        userId: member.userId,
        name: displayName(member),
        avatarUrl: member.avatarUrl,
        company: member.company,
        position: member.position,
        isPremium: member.isPremium,
        memberSince: formatMonthYear(member.createdAt),
        postCount: member.postCount,
      })),
      total: result.total,
      page,
      pageCount: result.pageCount,
      search,
      company,
      position,
    },
  }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudieron cargar los miembros" />
}

export default function DirectoryPage({ loaderData }: Route.ComponentProps) {
  return loaderData.directory ? (
    <MemberDirectory directory={loaderData.directory} />
  ) : (
    <PremiumPrompt description="El directorio de miembros es parte de la membresía premium: encuentra a directivos de pharma, biotech y medtech por nombre, empresa o cargo." />
  )
}
