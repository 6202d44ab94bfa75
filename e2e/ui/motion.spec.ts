/**
 * A person who asked their system for less motion gets a still page: the review page's pulsing "live" dot (an
 * infinite animation) stops instead of flickering at its shortened duration forever (app/globals.css). The journeys
 * run with reduced motion (playwright.config.ts), so this also checks that they do: a page that keeps animating in
 * headless Chromium repaints every frame in software.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';

function runningAnimations(page: Page): Promise<number> {
  return page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === 'running').length);
}

test('with reduced motion asked, nothing on the page keeps animating; without it, the live dot pulses', async ({ page }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/review');
  await expect(page.getByTestId('review-live')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => runningAnimations(page)).toBe(0);

  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await expect.poll(() => runningAnimations(page)).toBeGreaterThan(0);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect.poll(() => runningAnimations(page)).toBe(0);
});
