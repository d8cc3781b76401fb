import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

type User = ReturnType<typeof userEvent.setup>;

/**
 * Opens a menu with `trigger` and picks `item` with the keyboard, as a keyboard user would.
 *
 * Not with the pointer: Chakra's menus (zag) highlight an item under the pointer only when the
 * page's last input was a pointer move to a new place, and keep that state for the life of the
 * module, shared by every test of a worker. user-event moves every pointer to the same
 * coordinates in jsdom, so from the second test on a click on an item selected nothing.
 */
export async function pickMenuItem(
  user: User,
  trigger: HTMLElement,
  item: string,
  role: 'menuitem' | 'menuitemradio' = 'menuitem',
) {
  await user.click(trigger);
  const menuItem = await screen.findByRole(role, { name: item });
  const menu = menuItem.closest('[role="menu"]')!;
  // Keys go to the menu only once it has taken the focus, which it does a frame after opening.
  await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true));
  // The highlight moves asynchronously: press the arrow key and wait for it to move each time.
  for (let presses = 0; !menuItem.hasAttribute('data-highlighted'); presses++) {
    if (presses === 10) throw new Error(`the menu never highlighted '${item}'`);
    const before = menu.querySelector('[data-highlighted]');
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(menu.querySelector('[data-highlighted]')).not.toBe(before));
  }
  await user.keyboard('{Enter}');
}
