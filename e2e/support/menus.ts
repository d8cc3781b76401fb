import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Opens the menu that `trigger` opens and picks `item` as a person does: the pointer rests on the
 * item, which highlights it, and then clicks. A click sent while the menu was still settling
 * (its opening animation) now and then selected nothing on a busy machine: the theme switch in
 * account.spec.ts stayed dark with the menu left open.
 */
export async function pickMenuItem(
  page: Page,
  trigger: Locator,
  item: string,
  role: 'menuitem' | 'menuitemradio' = 'menuitem',
) {
  await trigger.click();
  await pickFromOpenMenu(page, item, role);
}

/** Picks `item` of the menu that is open, as `pickMenuItem` does. */
export async function pickFromOpenMenu(
  page: Page,
  item: string,
  role: 'menuitem' | 'menuitemradio' = 'menuitem',
) {
  const menu = page.getByRole('menu');
  await expect(menu).toHaveAttribute('data-state', 'open');
  const entry = menu.getByRole(role, { name: item, exact: true });
  await expect(async () => {
    await entry.hover();
    await expect(entry).toHaveAttribute('data-highlighted', '', { timeout: 1_000 });
  }).toPass();
  await entry.click();
}
