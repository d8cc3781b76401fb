import { describe, expect, it } from 'vitest';
import { CUSTOMERS, ORDERS, type OrderStatus } from '../data/shop.ts';
import { decideRefund, type RefundReason } from './refund-policy.ts';

const request = (orderId: string, reason: RefundReason, status?: OrderStatus, refundedCents = 0) => {
  const order = ORDERS.find((o) => o.id === orderId)!;
  return {
    order,
    customer: CUSTOMERS.find((c) => c.id === order.customerId)!,
    status: status ?? order.status,
    refundedCents,
    itemsCents: 10_000,
    reason,
  };
};

describe('the demo refund policy', () => {
  it.each([
    ['ORD-1042', 'changed_mind', 10_000, 'within 60 days'], // VIP, delivered 4 days before
    ['ORD-1040', 'other', 10_000, 'within 30 days'], // standard, 8 days
    ['ORD-1002', 'damaged', 10_695, 'faulty or damaged'], // old, but under warranty: shipping too
    ['ORD-1040', 'late', 995, 'late delivery'], // shipping only
    ['ORD-1046', 'changed_mind', 10_995, 'still processing'],
    ['ORD-1044', 'faulty', 10_995, 'faulty or damaged'],
  ] as const)('refunds %s (%s): %i cents', (orderId, reason, amount, rule) => {
    const decision = decideRefund(request(orderId, reason));
    expect(decision).toMatchObject({ refund: true, amountCents: amount });
    expect(decision.refund && decision.rule).toContain(rule);
  });

  it.each([
    ['ORD-1002', 'changed_mind', undefined, /66 days ago; customers have 30 days/],
    ['ORD-1001', 'other', undefined, /VIP customers have 60 days/],
    ['ORD-1044', 'changed_mind', undefined, /must be returned first/],
    ['ORD-1042', 'late', undefined, /shipped free/],
    ['ORD-1014', 'faulty', undefined, /cancelled/],
    ['ORD-1005', 'faulty', 'refunded', /already fully refunded/],
  ] as const)('refuses %s (%s)', (orderId, reason, status, why) => {
    const decision = decideRefund(request(orderId, reason, status));
    expect(decision.refund).toBe(false);
    expect(!decision.refund && decision.why).toMatch(why);
  });
});
