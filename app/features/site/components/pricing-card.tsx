import { useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { Button } from '~/ui/button'
import { type PlanId, pricing } from '~/features/site/content'
import { TAX_WORDING } from '~/features/billing/tax'
import { BadgeCheck, Check, Info, ShieldCheck } from './icons'

const CHECKOUT_ACTION = '/billing/checkout'
const PLAN_IDS: PlanId[] = ['monthly', 'annual']

/**
 * The membership card with the monthly/annual switch and the buy button. The switch is a
 * pair of radio inputs named `plan` inside the form, so the right plan is posted even
 * before (or without) JavaScript. Premium members see a notice instead of the button.
 */
export function PricingCard({
  isPremium,
  signedIn,
  headingLevel = 'h3',
}: {
  isPremium: boolean
  signedIn: boolean
  headingLevel?: 'h2' | 'h3'
}) {
  const [planId, setPlanId] = useState<PlanId>(pricing.defaultPlan)
  const navigation = useNavigation()
  const pending = navigation.state !== 'idle' && navigation.formAction === CHECKOUT_ACTION
  const plan = pricing.plans[planId]
  const Heading = headingLevel

  return (
    <div className="mx-auto w-full max-w-xl overflow-hidden rounded-2xl border bg-background shadow-xl ring-1 ring-navy/5">
      <div className="bg-navy px-6 py-5 text-white sm:px-8">
        <span className="inline-flex rounded-full bg-gold px-3 py-1 text-xs font-bold uppercase tracking-wider text-gold-foreground">
          {pricing.badge}
        </span>
        <Heading className="mt-3 text-2xl font-bold">{pricing.cardTitle}</Heading>
      </div>

      <Form method="post" action={CHECKOUT_ACTION} className="px-6 py-6 sm:px-8" data-testid="pricing-form">
        <input type="hidden" name="intent" value="checkout" />
        <fieldset>
          <legend className="sr-only">{pricing.toggleLegend}</legend>
          <div className="grid grid-cols-2 gap-1 rounded-lg bg-muted p-1">
            {PLAN_IDS.map((id) => {
              const option = pricing.plans[id]
              return (
                <label key={id} className="cursor-pointer">
                  <input
                    type="radio"
                    name="plan"
                    value={id}
                    checked={planId === id}
                    onChange={() => setPlanId(id)}
                    className="peer sr-only"
                  />
                  <span className="flex min-h-11 flex-col items-center justify-center rounded-md px-3 py-1.5 text-sm font-semibold text-slate-700 transition-colors peer-checked:bg-background peer-checked:text-navy peer-checked:shadow peer-focus-visible:ring-2 peer-focus-visible:ring-ring">
                    {option.label}
                    <span className="text-xs font-normal text-slate-600">{option.price}</span>
                  </span>
                </label>
              )
            })}
          </div>
        </fieldset>

        <div className="mt-6" aria-live="polite" data-testid="price" data-plan={planId}>
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-5xl font-bold tracking-tight text-navy">{plan.price}</span>
            <span className="text-lg text-muted-foreground">{plan.period}</span>
          </p>
          <p className="text-sm font-medium text-slate-700">{TAX_WORDING.priceNote}</p>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground">
            <span className="sr-only">{plan.compareAtLabel}</span>
            <del aria-hidden className="text-lg">
              {plan.compareAt}
            </del>
            {'savings' in plan ? (
              <span className="rounded-full bg-primary/10 px-2.5 py-0.5 text-sm font-semibold text-primary">{plan.savings}</span>
            ) : null}
          </p>
          <p className="mt-2 text-sm text-muted-foreground">{plan.billingNote}</p>
        </div>

        <ul className="mt-6 grid gap-3">
          {pricing.features.map((feature) => (
            <li key={feature} className="flex gap-3 text-sm">
              <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              {feature}
            </li>
          ))}
        </ul>

        <div className="mt-6 flex gap-3 rounded-lg border border-primary/20 bg-secondary p-4">
          <ShieldCheck className="size-6 shrink-0 text-primary" aria-hidden />
          <div className="text-sm">
            <p className="font-semibold text-navy">{pricing.guarantee}</p>
            <p className="mt-1 text-muted-foreground">
              {pricing.guaranteeDetail}{' '}
              <Link to="/legal#cancelacion" className="font-medium text-primary underline underline-offset-4">
                {pricing.legalLink}
              </Link>
            </p>
          </div>
        </div>

        <div className="mt-6">
          {isPremium ? (
            <div role="status" className="flex gap-3 rounded-lg bg-primary p-4 text-white">
              <BadgeCheck className="size-6 shrink-0 text-amber-300" aria-hidden />
              <div>
                <p className="font-semibold">{pricing.premiumTitle}</p>
                <p className="mt-1 text-sm text-slate-100">
                  {pricing.premiumText}{' '}
                  <Link to="/perfil" className="font-semibold underline underline-offset-4">
                    {pricing.premiumLink}
                  </Link>
                </p>
              </div>
            </div>
          ) : (
            <>
              <Button
                type="submit"
                size="lg"
                variant="gold"
                disabled={pending}
                aria-busy={pending || undefined}
                className="h-12 w-full text-base font-bold"
              >
                {pending ? pricing.pending : pricing.buy}
              </Button>
              {signedIn ? null : <p className="mt-3 text-center text-xs text-muted-foreground">{pricing.signInNote}</p>}
            </>
          )}
        </div>

        <ul className="mt-6 grid gap-2 border-t pt-5 text-xs text-muted-foreground">
          {pricing.notes.map((note) => (
            <li key={note} className="flex gap-2">
              <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
              {note}
            </li>
          ))}
        </ul>
      </Form>
    </div>
  )
}
