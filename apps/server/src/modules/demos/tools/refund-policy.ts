import { SHOP_TODAY, type Customer, type Order, type OrderStatus } from '../data/shop.ts';

/**
 * The refund policy of the sample shop (REFUND_POLICY in data/shop.ts) as code: `issue_refund`
 * asks here before it refunds anything, so a refund outside the policy is refused by the tool,
 * however firmly the model was asked. The prompt only tells the agent to explain the policy.
 */

export type RefundReason =
  'damaged' | 'faulty' | 'late' | 'wrong_item' | 'not_as_described' | 'changed_mind' | 'other';

export interface RefundRequest {
  order: Order;
  customer: Customer;
  /** The order's current state in the visitor's copy. */
  status: OrderStatus;
  refundedCents: number;
  itemsCents: number;
  reason: RefundReason;
}

export type RefundDecision =
  { refund: true; amountCents: number; rule: string } | { refund: false; why: string };

const DAY_MS = 86_400_000;
const WARRANTY_DAYS = 730;
const TICKET_HINT = 'Open a support ticket (open_ticket) if the customer asks for an exception.';

const daysBetween = (from: string, to: string) => Math.floor((Date.parse(to) - Date.parse(from)) / DAY_MS);

export function decideRefund(request: RefundRequest, today = SHOP_TODAY): RefundDecision {
  const { order, customer, status, refundedCents, itemsCents, reason } = request;
  const total = itemsCents + order.shippingCents;
  const remaining = total - refundedCents;
  const refuse = (why: string): RefundDecision => ({ refund: false, why: `${why} ${TICKET_HINT}` });
  if (status === 'cancelled') return { refund: false, why: `${order.id} was cancelled and never charged.` };
  if (status === 'refunded' || remaining <= 0)
    return { refund: false, why: `${order.id} is already fully refunded.` };

  if (status === 'processing')
    return {
      refund: true,
      amountCents: remaining,
      rule: 'an order still processing is cancelled and refunded in full',
    };

  const faulty = reason === 'damaged' || reason === 'faulty';
  if (status === 'shipped') {
    if (faulty)
      return { refund: true, amountCents: remaining, rule: 'faulty or damaged items are refunded in full' };
    return refuse(
      `${order.id} has shipped but not arrived: under the policy it must be returned first unless it is faulty.`,
    );
  }

  const delivered = order.deliveredAt ?? order.placedAt;
  const age = daysBetween(delivered, today);
  if (faulty) {
    if (age > WARRANTY_DAYS)
      return refuse(
        `${order.id} was delivered ${age} days ago, past the 2-year warranty for faulty or damaged items.`,
      );
    return {
      refund: true,
      amountCents: remaining,
      rule: 'faulty or damaged items are refunded in full, shipping included',
    };
  }
  if (reason === 'late') {
    const shippingLeft = Math.min(order.shippingCents, remaining);
    if (shippingLeft <= 0)
      return refuse(`${order.id} shipped free, so a late delivery leaves no shipping charge to refund.`);
    return { refund: true, amountCents: shippingLeft, rule: 'a late delivery has its shipping refunded' };
  }
  const window = customer.tier === 'vip' ? 60 : 30;
  if (age > window) {
    return refuse(
      `${order.id} was delivered on ${delivered}, ${age} days ago; ${customer.tier === 'vip' ? 'VIP customers have 60' : 'customers have 30'} days to return unused items, so it is outside the refund policy.`,
    );
  }
  const itemsLeft = Math.min(itemsCents, remaining);
  return {
    refund: true,
    amountCents: itemsLeft,
    rule: `unused items returned within ${window} days are refunded at the item price`,
  };
}
