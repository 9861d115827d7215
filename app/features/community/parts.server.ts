import type { Parts } from '~/platform/parts.server'
import { readCounters } from './counters.server'
import { communitySettings } from './settings.server'

export const communityParts: Parts = {
  settings: communitySettings,
  // What the operator watches of the membership (decisions/0036), from the counters triggers keep.
  gauges: [
    { name: 'circulo_members', help: 'Member accounts', read: async () => (await readCounters(['members'])).members },
    {
      name: 'circulo_premium_members',
      help: 'Members with premium (subscription or granted)',
      read: async () => (await readCounters(['premium_members'])).premium_members,
    },
  ],
}
