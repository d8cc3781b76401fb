import { useMemo, useRef, useState } from 'react';
import { keepOrder } from './services-logic';

/**
 * Active services come first, but a card must not move while someone is about to press it: while
 * any reason to hold is on (`hold(reason, true)`), the services keep the order they had then.
 */
export function useHeldOrder<T extends { id: number }>(sorted: T[]) {
  const [heldOrder, setHeldOrder] = useState<number[] | null>(null);
  const shown = useMemo(() => keepOrder(sorted, heldOrder), [sorted, heldOrder]);
  const holdReasons = useRef(new Set<string>());
  const hold = (reason: string, on: boolean) => {
    if (on) holdReasons.current.add(reason);
    else holdReasons.current.delete(reason);
    if (holdReasons.current.size > 0) setHeldOrder((held) => held ?? shown.map((s) => s.id));
    else setHeldOrder(null);
  };
  return { shown, hold };
}
