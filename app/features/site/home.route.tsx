import { useRouteLoaderData } from 'react-router'
import { AccessSection } from '~/features/site/components/access-section'
import { BenefitCards } from '~/features/site/components/benefit-cards'
import { CeoNight } from '~/features/site/components/ceo-night'
import { ClosingCta } from '~/features/site/components/closing-cta'
import { Eyebrow } from '~/features/site/components/admission-link'
import { FaqSection, faqJsonLd } from '~/features/site/components/faq-section'
import { Hero } from '~/features/site/components/hero'
import { HowItWorks } from '~/features/site/components/how-it-works'
import { PressMentions } from '~/features/site/components/press-mentions'
import { PricingCard } from '~/features/site/components/pricing-card'
import { QuoteBanner } from '~/features/site/components/quote-banner'
import { pageMeta } from '~/features/site/components/seo'
import { StickyAdmissionBar } from '~/features/site/components/sticky-admission-bar'
import { pricing, seo } from './content'
import { getEnv } from '~/platform/env.server'
import type { Route } from './+types/home.route'

type RootData = { user: { isPremium: boolean } | null } | undefined

export function loader() {
  // The public address (APP_URL) for the canonical link and the absolute og:image.
  return { origin: getEnv().APP_URL }
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta({ origin: loaderData?.origin ?? '', path: '/', title: seo.title, description: seo.description })

export default function HomePage() {
  const root = useRouteLoaderData('root') as RootData
  const user = root?.user ?? null
  return (
    <>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: faqJsonLd() }} />
      <Hero />
      <QuoteBanner />
      <AccessSection />
      <BenefitCards />
      <CeoNight />
      <PressMentions />
      <HowItWorks />
      <section id="precios" aria-labelledby="precios-title" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <div id="pricing" className="mx-auto max-w-2xl text-center">
          <Eyebrow>{pricing.eyebrow}</Eyebrow>
          <h2 id="precios-title" className="mt-2 text-3xl font-bold tracking-tight text-navy sm:text-4xl">
            {pricing.title}
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">{pricing.intro}</p>
        </div>
        <div className="mt-10">
          <PricingCard isPremium={Boolean(user?.isPremium)} signedIn={Boolean(user)} />
        </div>
      </section>
      <ClosingCta />
      <FaqSection />
      <StickyAdmissionBar />
    </>
  )
}
