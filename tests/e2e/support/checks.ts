import { mkdirSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']
export const NARROW = { width: 360, height: 740 }
export const MOBILE = { width: 390, height: 844 }
export const DESKTOP = { width: 1280, height: 800 }
const SCREENS_DIR = 'test-results/screens'

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number]

/** One readable line per violation and element: what, why, where. */
function describeViolations(violations: Violation[]) {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map(
          (node) =>
            `      - ${node.target.join(' ')}${node.failureSummary ? `\n        ${node.failureSummary.replace(/\n\s*/g, ' · ')}` : ''}`,
        )
        .join('\n')
      return `  [${violation.impact ?? 'n/a'}] ${violation.id}: ${violation.help}\n    ${violation.helpUrl}\n${nodes}`
    })
    .join('\n')
}

/**
 * `disableRules` leaves out rules a known, reported bug breaks (name the bug where it is used),
 * so the rest of the page is still checked.
 */
export async function expectNoAxeViolations(page: Page, label: string, { disableRules = [] }: { disableRules?: string[] } = {}) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).disableRules(disableRules).analyze()
  if (violations.length > 0) console.log(`\nAxe violations on ${label}:\n${describeViolations(violations)}\n`)
  // Soft: a test checking several states reports every one of them.
  expect.soft(violations.length, `axe violations on ${label}:\n${describeViolations(violations)}`).toBe(0)
}

/** No horizontal scrolling (at 360 px unless a viewport is given): nothing wider than the screen. */
export async function expectNoHorizontalOverflow(page: Page, label: string, viewport = NARROW) {
  await page.setViewportSize(viewport)
  await page.waitForFunction((width) => window.innerWidth === width, viewport.width)
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    // The innermost elements reaching past the right edge: what to fix.
    const limit = document.documentElement.clientWidth + 1
    const wide = [...document.body.querySelectorAll<HTMLElement>('*')].filter(
      (element) => element.getBoundingClientRect().right > limit && getComputedStyle(element).position !== 'fixed',
    )
    const innermost = wide.filter((element) => !wide.some((other) => other !== element && element.contains(other)))
    const describe = (element: HTMLElement) => {
      const classes = element.getAttribute('class')?.trim().split(/\s+/).slice(0, 6).join('.') ?? ''
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60)
      return `<${element.tagName.toLowerCase()}${classes ? ` class="${classes}"` : ''}> right=${Math.round(element.getBoundingClientRect().right)}px "${text}"`
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      culprits: innermost.slice(0, 8).map(describe),
    }
  })
  expect
    .soft(scrollWidth, `horizontal overflow on ${label} at ${viewport.width} px; elements past the edge:\n  ${culprits.join('\n  ')}`)
    .toBeLessThanOrEqual(clientWidth)
}

/** Saved under test-results/screens for a person to look at; it asserts nothing. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  mkdirSync(SCREENS_DIR, { recursive: true })
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage })
}
