import type { ChatApprovalDescriptor } from '@cadre/contract';
import { useEffect, useState } from 'react';

const MINUTE = 60_000;

/**
 * When a pending approval expires, on this browser's clock: the time it had left when the server
 * sent it, counted from when the card first showed (so a wrong client clock does not matter), or
 * its `expiresAt` when only that is known. Undefined for a card without an expiry.
 */
function deadlineOf(descriptor: Partial<ChatApprovalDescriptor> | undefined, receivedAt: number) {
  if (typeof descriptor?.expiresInMs === 'number') return receivedAt + descriptor.expiresInMs;
  const at = descriptor?.expiresAt ? Date.parse(descriptor.expiresAt) : NaN;
  return Number.isNaN(at) ? undefined : at;
}

/**
 * The time left on an approval card, re-read by a timer when the shown minute changes and when it
 * expires (the server is never polled). `expired` turns true exactly at the deadline.
 */
export function useApprovalDeadline(descriptor: Partial<ChatApprovalDescriptor> | undefined) {
  const [deadline] = useState(() => deadlineOf(descriptor, Date.now()));
  const [now, setNow] = useState(() => Date.now());
  const left = deadline === undefined ? undefined : Math.max(0, deadline - now);
  useEffect(() => {
    if (deadline === undefined || left === 0) return;
    // Wake when the whole minutes shown change, or at the deadline itself (from the clock now, not
    // from the last render, which may be late).
    const rest = deadline - Date.now();
    // Just past a whole minute, so the rounded-up minutes shown go down by one.
    const wait = rest >= MINUTE ? (rest % MINUTE) + 1 : Math.max(0, rest);
    const timer = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [deadline, left]);
  return { deadline, left, expired: left === 0 };
}

/** "Expires in 14 min (at 14:32)", "Expires in less than a minute (at 14:32)". */
export function expiryText(deadline: number, left: number): string {
  const at = new Date(deadline).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const minutes = Math.ceil(left / MINUTE);
  const inTime = left < MINUTE ? 'less than a minute' : `${minutes} min`;
  return `Expires in ${inTime} (at ${at})`;
}
