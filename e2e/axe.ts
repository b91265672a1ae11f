import type { Page } from '@playwright/test'
import axe from 'axe-core'

// axe in the journeys: a11y.spec.ts visits every screen with it; a journey that adds a screen checks it the same way.

/** axe's rules of WCAG 2.x A and AA (the tap targets of 2.2 included), and its best practices. */
const RULE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/**
 * axe's violations on the screen as it is now. axe is put in the page once per document (its source is 560 KB; putting
 * it in again for every run, as @axe-core/playwright does three times a run, cost more than the run), then run on each
 * screen the app shows in it: in the page itself (no iframes here), violations only.
 */
async function axeViolations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source)
  return page.evaluate(
    (values) =>
      (window as unknown as { axe: typeof axe }).axe.run(document, {
        runOnly: { type: 'tag', values },
        resultTypes: ['violations'],
      }),
    RULE_TAGS,
  )
}

/**
 * Waits until the screen's entrance animations (the page sliding and fading in, a sheet rising) have ended: axe
 * measures contrast on the colours as painted, and a text half faded in fails it. Endless ones (spinners) do not end.
 * A dialog's fade starts only once the animation library's features have loaded (components/modal-frame.tsx): until
 * then it is painted at its first opacity, 0, with no animation running, so open dialogs are waited on until opaque.
 */
async function animationsDone(page: Page) {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('[role="dialog"]')).every((dialog) => {
      for (let element: Element | null = dialog; element; element = element.parentElement)
        if (getComputedStyle(element).opacity !== '1') return false
      return true
    }),
  )
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
}

/** The serious and critical axe violations of the screen as it is now, once its animations have ended: rule and elements. */
export async function seriousViolations(page: Page, screen: string) {
  await animationsDone(page)
  const { violations } = await axeViolations(page)
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.help}) at ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}
