import { useRouteLoaderData } from 'react-router'
import { AccessSection } from '~/components/landing/access-section'
import { BenefitCards } from '~/components/landing/benefit-cards'
import { CeoNight } from '~/components/landing/ceo-night'
import { ClosingCta } from '~/components/landing/closing-cta'
import { Eyebrow } from '~/components/landing/external-button'
import { FaqSection, faqJsonLd } from '~/components/landing/faq-section'
import { Hero } from '~/components/landing/hero'
import { HowItWorks } from '~/components/landing/how-it-works'
import { PressMentions } from '~/components/landing/press-mentions'
import { PricingCard } from '~/components/landing/pricing-card'
import { QuoteBanner } from '~/components/landing/quote-banner'
import { pageMeta } from '~/components/landing/seo'
import { StickyAdmissionBar } from '~/components/landing/sticky-admission-bar'
import { pricing, seo } from '~/content/landing'
import { getEnv } from '~/utils/env.server'
import type { Route } from './+types/home'

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
