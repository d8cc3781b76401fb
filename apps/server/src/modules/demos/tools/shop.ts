import { z } from 'zod';
import {
  CUSTOMERS,
  ORDERS,
  PRODUCTS,
  REFUND_POLICY,
  SHOP_NAME,
  type Customer,
  type Order,
  type OrderStatus,
} from '../data/shop.ts';
import { createDemoRepository } from '../repository.ts';
import { decideRefund } from './refund-policy.ts';
import { money, resolveOne, table } from './text.ts';
import { defineDemoTool, DemoInputError, text, type DemoTool, type DemoToolContext } from './types.ts';

/** The customer-service agent's tools over the sample shop; refunds and tickets change the visitor's copy. */

const ORDER_ID = /\bORD-\d{4}\b/i;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const REFUND_REASONS = [
  'damaged',
  'faulty',
  'late',
  'wrong_item',
  'not_as_described',
  'changed_mind',
  'other',
] as const;
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

const productOf = (sku: string) => PRODUCTS.find((p) => p.sku === sku)!;
const customerOf = (id: string) => CUSTOMERS.find((c) => c.id === id)!;
const itemsCents = (o: Order) => o.items.reduce((n, i) => n + productOf(i.sku).priceCents * i.quantity, 0);
const totalCents = (o: Order) => itemsCents(o) + o.shippingCents;
// "ORD-1042", or the bare number people say ("refund order 1042").
const findOrder = (text: string) => {
  const bare = /^\s*#?(\d{4})\s*$/.exec(text)?.[1];
  const id = text.match(ORDER_ID)?.[0].toUpperCase() ?? (bare && `ORD-${bare}`);
  return id ? ORDERS.find((o) => o.id === id) : undefined;
};

async function orderState(ctx: DemoToolContext, orderId: string) {
  const [state] = await createDemoRepository(ctx.db).orderStates(ctx.userId, [orderId]);
  if (!state) throw new DemoInputError(`Order ${orderId} is not in this demo session.`);
  return state;
}

async function describeOrder(ctx: DemoToolContext, o: Order): Promise<string> {
  const repo = createDemoRepository(ctx.db);
  const state = await orderState(ctx, o.id);
  const customer = customerOf(o.customerId);
  const { refunds, tickets } = await repo.orderHistory(ctx.userId, o.id);
  const lines = [
    `## Order ${o.id}`,
    '',
    `- **Customer:** ${customer.name} (${customer.email}, ${customer.tier} since ${customer.since.slice(0, 4)})`,
    `- **Placed:** ${o.placedAt} · **Status:** ${state.status.replace('_', ' ')}${o.deliveredAt ? ` · **Delivered:** ${o.deliveredAt}` : ''}`,
    `- **Shipping:** ${o.carrier}${o.tracking ? `, tracking ${o.tracking}` : ''} (${money(o.shippingCents)})`,
    `- **Total:** ${money(totalCents(o))}${state.refunded_cents ? ` · **Refunded:** ${money(state.refunded_cents)}` : ''}`,
    '',
    table(
      ['Item', 'SKU', 'Qty', 'Price'],
      o.items.map((i) => [
        productOf(i.sku).name,
        i.sku,
        i.quantity,
        money(productOf(i.sku).priceCents * i.quantity),
      ]),
    ),
  ];
  if (refunds.length) {
    lines.push(
      '',
      `Refunds: ${refunds.map((r) => `${r.id} ${money(r.amount_cents)} (${r.reason})`).join('; ')}`,
    );
  }
  if (tickets.length) {
    lines.push('', `Tickets: ${tickets.map((t) => `${t.id} "${t.subject}" (${t.status})`).join('; ')}`);
  }
  return lines.join('\n');
}

async function ordersTable(ctx: DemoToolContext, customer: Customer): Promise<string> {
  const orders = ORDERS.filter((o) => o.customerId === customer.id);
  const states = new Map(
    (
      await createDemoRepository(ctx.db).orderStates(
        ctx.userId,
        orders.map((o) => o.id),
      )
    ).map((s) => [s.order_id, s]),
  );
  return table(
    ['Order', 'Placed', 'Status', 'Total', 'Refunded'],
    orders.map((o) => [
      o.id,
      o.placedAt,
      (states.get(o.id)?.status ?? o.status).replace('_', ' '),
      money(totalCents(o)),
      money(states.get(o.id)?.refunded_cents ?? 0),
    ]),
  );
}

export const lookupOrder = defineDemoTool({
  name: 'lookup_order',
  displayName: 'Look up order',
  description: `Look up a ${SHOP_NAME} order by its id (like ORD-1042), or every order of a customer by email: items, status, delivery, tracking, refunds and tickets.`,
  effect: 'read',
  input: z.strictObject({
    query: text().describe('An order id such as ORD-1042, or a customer email address.'),
  }),
  async run({ query }, ctx) {
    const order = findOrder(query);
    if (order) return describeOrder(ctx, order);
    if (ORDER_ID.test(query))
      throw new DemoInputError(
        `There is no order ${query.match(ORDER_ID)![0]}. Order ids run from ORD-1001 to ORD-1050.`,
      );
    const email = query.match(EMAIL)?.[0].toLowerCase();
    const customer = email ? CUSTOMERS.find((c) => c.email === email) : undefined;
    if (!customer)
      throw new DemoInputError('Give an order id like ORD-1042 or the email address of a customer.');
    return `Orders of ${customer.name} (${customer.email}):\n\n${await ordersTable(ctx, customer)}`;
  },
});

export const lookupCustomer = defineDemoTool({
  name: 'lookup_customer',
  displayName: 'Look up customer',
  description: `Find a ${SHOP_NAME} customer by email, name or id (like CUS-501): contact details, loyalty tier and order history.`,
  effect: 'read',
  input: z.strictObject({ query: text().describe('Email, full name or customer id (CUS-501).') }),
  async run({ query }, ctx) {
    const email = query.match(EMAIL)?.[0].toLowerCase();
    // Never a near match or a suggestion: either would show one customer's details to someone
    // asking about another.
    const customer =
      (email && CUSTOMERS.find((c) => c.email === email)) ||
      resolveOne(
        query,
        CUSTOMERS,
        (c) => c.id,
        (c) => c.name,
      ).found;
    if (!customer)
      throw new DemoInputError(
        'No customer matches. Try an email address such as maya.lindgren@example.com.',
      );
    return [
      `## ${customer.name} (${customer.id})`,
      '',
      `- **Email:** ${customer.email}`,
      `- **Location:** ${customer.city}, ${customer.country}`,
      `- **Customer since:** ${customer.since} · **Tier:** ${customer.tier}`,
      '',
      await ordersTable(ctx, customer),
    ].join('\n');
  },
});

export const refundPolicy = defineDemoTool({
  name: 'get_refund_policy',
  displayName: 'Refund policy',
  description: `Read the ${SHOP_NAME} refund and returns policy: time limits, damaged items, late deliveries, VIP rules.`,
  effect: 'read',
  input: z.strictObject({}),
  async run() {
    return REFUND_POLICY;
  },
});

const refundInput = z.strictObject({
  order_id: text().describe('The order id, e.g. ORD-1042.'),
  reason: z.enum(REFUND_REASONS).optional().describe('Why the customer is refunded.'),
});

/** What the refund policy says about a refund, from the order's state in the visitor's copy. */
async function refundFor(input: z.output<typeof refundInput>, ctx: DemoToolContext) {
  const order = findOrder(input.order_id);
  if (!order) throw new DemoInputError('Give the order id to refund, e.g. ORD-1042.');
  const state = await orderState(ctx, order.id);
  const customer = customerOf(order.customerId);
  const reason = input.reason ?? 'other';
  const decision = decideRefund({
    order,
    customer,
    status: state.status as OrderStatus,
    refundedCents: state.refunded_cents,
    itemsCents: itemsCents(order),
    reason,
  });
  if (!decision.refund) throw new DemoInputError(`Refund refused: ${decision.why}`);
  return { order, state, customer, reason, decision };
}

export const issueRefund = defineDemoTool({
  name: 'issue_refund',
  displayName: 'Issue refund',
  description:
    "Issue a refund for an order under the refund policy (the tool refuses a refund the policy does not allow). Changes the order: needs the user's approval.",
  effect: 'write',
  input: refundInput,
  // Asked before the approval card: a refund the policy refuses is never put to the visitor.
  async check(input, ctx) {
    await refundFor(input, ctx);
  },
  // And again when it runs: the order may have changed since.
  async run(input, ctx) {
    const { order, state, customer, reason, decision } = await refundFor(input, ctx);
    const refunded = state.refunded_cents + decision.amountCents;
    const newStatus = refunded >= totalCents(order) ? 'refunded' : 'partially_refunded';
    const refundId = await createDemoRepository(ctx.db).recordRefund({
      userId: ctx.userId,
      orderId: order.id,
      expectedRefundedCents: state.refunded_cents,
      amountCents: decision.amountCents,
      newStatus,
      reason,
      at: ctx.now().toISOString(),
    });
    if (!refundId) throw new DemoInputError(`${order.id} changed while refunding; look it up and try again.`);
    return `Refund ${refundId} issued: ${money(decision.amountCents)} for order ${order.id} (${reason.replace('_', ' ')}; policy: ${decision.rule}) back to ${customer.name}'s original payment method within 5 business days. The order is now ${newStatus.replace('_', ' ')}.`;
  },
});

export const openTicket = defineDemoTool({
  name: 'open_ticket',
  displayName: 'Open support ticket',
  description:
    "Open a support ticket for the returns team (exceptions, disputes, damaged deliveries), optionally about an order. Needs the user's approval.",
  effect: 'write',
  input: z.strictObject({
    subject: text().describe('What the ticket is about, in one sentence.'),
    order_id: text().optional().describe('The order concerned, e.g. ORD-1042 (optional).'),
    priority: z.enum(PRIORITIES).optional(),
  }),
  async run(input, ctx) {
    const { subject } = input;
    if (!subject) throw new DemoInputError('Say what the ticket is about.');
    const order = findOrder(input.order_id ?? '') ?? findOrder(subject);
    const customer = order ? customerOf(order.customerId) : undefined;
    const priority = input.priority ?? 'normal';
    const id = await createDemoRepository(ctx.db).createTicket({
      user_id: ctx.userId,
      subject: subject.slice(0, 300),
      order_id: order?.id ?? null,
      customer_email: customer?.email ?? null,
      priority,
      created_at: ctx.now().toISOString(),
    });
    return `Ticket ${id} opened (${priority} priority)${order ? ` for order ${order.id} of ${customer!.name}` : ''}: "${subject.slice(0, 300)}". The returns team answers within one business day.`;
  },
});

export const SHOP_TOOLS: DemoTool[] = [lookupOrder, lookupCustomer, refundPolicy, issueRefund, openTicket];
