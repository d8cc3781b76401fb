/**
 * The customer-service demo's sample shop, "Northwind Outfitters" (fictional): an outdoor-gear web
 * shop with customers, products and orders. Orders are copied per demo session (their status and
 * refunded amount change); everything else is read-only. Amounts are in cents.
 */
import shopOrders from './shop-orders.json' with { type: 'json' };

export const SHOP_NAME = 'Northwind Outfitters';

export interface Customer {
  id: string;
  name: string;
  email: string;
  city: string;
  country: string;
  since: string;
  tier: 'standard' | 'plus' | 'vip';
}

export interface Product {
  sku: string;
  name: string;
  priceCents: number;
  category: string;
}

export type OrderStatus = 'processing' | 'shipped' | 'delivered' | 'cancelled' | 'refunded' | 'partially_refunded';

export interface Order {
  id: string;
  customerId: string;
  placedAt: string;
  status: OrderStatus;
  deliveredAt: string | null;
  items: Array<{ sku: string; quantity: number }>;
  shippingCents: number;
  carrier: string;
  tracking: string | null;
}

// prettier-ignore
export const CUSTOMERS: readonly Customer[] = ([
  ['CUS-501', 'Maya Lindgren', 'maya.lindgren@example.com', 'Portland', 'United States', '2021-04-12', 'vip'],
  ['CUS-502', 'Daniel Osei', 'daniel.osei@example.com', 'Leeds', 'United Kingdom', '2022-09-03', 'standard'],
  ['CUS-503', 'Sofia Marquez', 'sofia.marquez@example.com', 'Madrid', 'Spain', '2020-11-21', 'plus'],
  ['CUS-504', 'Liam O\'Connor', 'liam.oconnor@example.com', 'Cork', 'Ireland', '2023-02-14', 'standard'],
  ['CUS-505', 'Hana Sato', 'hana.sato@example.com', 'Vancouver', 'Canada', '2021-07-30', 'plus'],
  ['CUS-506', 'Ethan Brooks', 'ethan.brooks@example.com', 'Denver', 'United States', '2019-05-18', 'vip'],
  ['CUS-507', 'Amelie Durand', 'amelie.durand@example.com', 'Grenoble', 'France', '2022-01-09', 'standard'],
  ['CUS-508', 'Jonas Berg', 'jonas.berg@example.com', 'Bergen', 'Norway', '2020-03-27', 'plus'],
  ['CUS-509', 'Priya Nair', 'priya.nair@example.com', 'Seattle', 'United States', '2023-06-02', 'standard'],
  ['CUS-510', 'Lucas Weber', 'lucas.weber@example.com', 'Innsbruck', 'Austria', '2021-10-11', 'standard'],
  ['CUS-511', 'Chloe Bennett', 'chloe.bennett@example.com', 'Boulder', 'United States', '2018-08-25', 'vip'],
  ['CUS-512', 'Mateo Rossi', 'mateo.rossi@example.com', 'Turin', 'Italy', '2022-12-05', 'standard'],
  ['CUS-513', 'Grace Kim', 'grace.kim@example.com', 'Toronto', 'Canada', '2020-09-14', 'plus'],
  ['CUS-514', 'Noah Fischer', 'noah.fischer@example.com', 'Zurich', 'Switzerland', '2023-03-19', 'standard'],
  ['CUS-515', 'Isabella Costa', 'isabella.costa@example.com', 'Porto', 'Portugal', '2021-05-06', 'standard'],
  ['CUS-516', 'Oliver Hughes', 'oliver.hughes@example.com', 'Cardiff', 'United Kingdom', '2019-12-01', 'plus'],
  ['CUS-517', 'Emma Johansson', 'emma.johansson@example.com', 'Umeå', 'Sweden', '2022-04-23', 'standard'],
  ['CUS-518', 'Aiden Murphy', 'aiden.murphy@example.com', 'Salt Lake City', 'United States', '2020-06-16', 'vip'],
  ['CUS-519', 'Zara Ahmed', 'zara.ahmed@example.com', 'Manchester', 'United Kingdom', '2023-08-08', 'standard'],
  ['CUS-520', 'Felix Novak', 'felix.novak@example.com', 'Ljubljana', 'Slovenia', '2021-02-28', 'standard'],
  ['CUS-521', 'Ruby Walker', 'ruby.walker@example.com', 'Hobart', 'Australia', '2022-07-17', 'plus'],
  ['CUS-522', 'Samuel Adeyemi', 'samuel.adeyemi@example.com', 'Calgary', 'Canada', '2023-01-04', 'standard'],
  ['CUS-523', 'Leonie Schmitt', 'leonie.schmitt@example.com', 'Freiburg', 'Germany', '2020-10-10', 'plus'],
  ['CUS-524', 'Henry Clarke', 'henry.clarke@example.com', 'Asheville', 'United States', '2019-03-03', 'standard'],
  ['CUS-525', 'Mia Van Dijk', 'mia.vandijk@example.com', 'Utrecht', 'Netherlands', '2022-11-29', 'standard'],
] as const).map(([id, name, email, city, country, since, tier]) => ({ id, name, email, city, country, since, tier }));

// prettier-ignore
export const PRODUCTS: readonly Product[] = ([
  ['NW-TENT-2P', 'Ridgeline 2-person tent', 34900, 'tents'],
  ['NW-TENT-4P', 'Basecamp 4-person tent', 52900, 'tents'],
  ['NW-BAG-0C', 'Glacier down sleeping bag (0 °C)', 21900, 'sleeping'],
  ['NW-BAG-10C', 'Summit synthetic sleeping bag (10 °C)', 12900, 'sleeping'],
  ['NW-MAT-UL', 'Featherlite sleeping mat', 8900, 'sleeping'],
  ['NW-PACK-45', 'Trailhead 45 L backpack', 18900, 'packs'],
  ['NW-PACK-65', 'Expedition 65 L backpack', 26900, 'packs'],
  ['NW-JKT-SHELL', 'Stormwall rain shell jacket', 22900, 'clothing'],
  ['NW-JKT-DOWN', 'Emberdown insulated jacket', 27900, 'clothing'],
  ['NW-BOOT-MID', 'Cragmoor mid hiking boots', 17900, 'footwear'],
  ['NW-SHOE-TRL', 'Switchback trail runners', 13900, 'footwear'],
  ['NW-STOVE', 'Pocketflame camping stove', 5900, 'cooking'],
  ['NW-POT-SET', 'Titanium cook pot set', 7900, 'cooking'],
  ['NW-LAMP', 'Beacon 400 headlamp', 4900, 'accessories'],
  ['NW-POLES', 'Carbon trekking poles (pair)', 11900, 'accessories'],
  ['NW-FILTER', 'Clearstream water filter', 4500, 'accessories'],
] as const).map(([sku, name, priceCents, category]) => ({ sku, name, priceCents, category }));

type OrderRow = [string, string, string, OrderStatus, string | null, string, number, string];

// shop-orders.json: [id, customer, placed, status, delivered, "sku*qty sku*qty", shipping cents, carrier]
const orderRows = shopOrders as OrderRow[];

export const ORDERS: readonly Order[] = orderRows.map(([id, customerId, placedAt, status, deliveredAt, items, shippingCents, carrier], i) => ({
  id,
  customerId,
  placedAt,
  status,
  deliveredAt,
  items: items.split(' ').map((entry) => {
    const [sku, quantity] = entry.split('*');
    return { sku: sku!, quantity: Number(quantity) };
  }),
  shippingCents,
  carrier,
  tracking: status === 'processing' || status === 'cancelled' ? null : `1Z${(884200 + i * 37).toString()}NW`,
}));

/** Refunds already made before the demo starts (the orders marked refunded or partially refunded). */
export const INITIAL_REFUNDED_CENTS: Readonly<Record<string, number>> = { 'ORD-1005': 14495, 'ORD-1018': 4900 };

/**
 * "Today" in the sample shop: the orders carry fixed dates, so the refund policy's time limits are
 * judged on this date rather than the real one, and the demo reads the same every day.
 */
export const SHOP_TODAY = '2025-11-14';

export const REFUND_POLICY = `# ${SHOP_NAME} refund policy

_Today in this demo is ${SHOP_TODAY}._

- **30-day returns.** Unused items can be returned within 30 days of delivery for a full refund of the item price.
- **Faulty or damaged items** are refunded in full, including shipping, at any time within the 2-year warranty.
- **Late deliveries:** if an order arrives more than 5 days after the promised date, shipping is refunded.
- **VIP customers** get 60 days instead of 30.
- Orders that are still processing can be cancelled and refunded in full; shipped orders must be returned first unless they are faulty.
- Refunds go back to the original payment method within 5 business days. Cancelled and already-refunded orders cannot be refunded again.
- Anything else (exceptions, disputes) goes to a support ticket for the returns team.`;
