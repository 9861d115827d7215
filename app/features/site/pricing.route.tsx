import { ArrowRight } from '~/features/site/components/icons'
import { Link, useRouteLoaderData } from 'react-router'
import { AdmissionLink } from '~/features/site/components/admission-link'
import { PricingCard } from '~/features/site/components/pricing-card'
import { pageMeta } from '~/features/site/components/seo'
import { pricingPage, seo } from './content'
import { getEnv } from '~/platform/env.server'
import type { Route } from './+types/pricing.route'

type RootData = { user: { isPremium: boolean } | null } | undefined

export function loader() {
  return { origin: getEnv().APP_URL }
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({ origin: loaderData?.origin ?? '', path: '/pricing', title: seo.pricingTitle, description: seo.pricingDescription })

export default function PricingPage() {
  const root = useRouteLoaderData('root') as RootData
  const user = root?.user ?? null
  return (
    <section aria-labelledby="pricing-title" className="bg-secondary">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
        <div className="mx-auto max-w-2xl text-center">
          <h1 id="pricing-title" className="text-4xl font-bold tracking-tight text-navy sm:text-5xl">
            {pricingPage.title}
          </h1>
          <p className="mt-4 text-lg text-muted-foreground">{pricingPage.lead}</p>
        </div>
        <div className="mt-10">
          <PricingCard isPremium={Boolean(user?.isPremium)} signedIn={Boolean(user)} headingLevel="h2" />
        </div>
        <div className="mx-auto mt-10 flex max-w-xl flex-col items-center gap-4 text-center">
          {user?.isPremium ? null : (
            <>
              <p className="text-muted-foreground">{pricingPage.admissionNote}</p>
              <AdmissionLink tone="primary" className="w-full sm:w-auto">
                {pricingPage.admissionCta}
              </AdmissionLink>
            </>
          )}
          <Link
            to="/#faq"
            className="inline-flex items-center gap-2 rounded-sm font-medium text-primary underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          >
            {pricingPage.faqLink}
            <ArrowRight className="size-4" aria-hidden />
          </Link>
        </div>
      </div>
    </section>
  )
}
