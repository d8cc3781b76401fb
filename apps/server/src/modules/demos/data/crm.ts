/**
 * The sales-outreach demo's sample CRM for "Brightpath Analytics" (fictional), which sells a
 * forecasting and reporting platform. Leads are read-only; activities are copied per demo session
 * (visitors log new ones).
 */
export const SELLER = {
  company: 'Brightpath Analytics',
  product: 'Brightpath',
  pitch: 'turns operational data into weekly forecasts and board-ready reports without a data team',
  sender: 'Alex Morgan',
  senderTitle: 'Account Executive',
};

export const INDUSTRIES = [
  'healthcare',
  'manufacturing',
  'retail',
  'logistics',
  'finance',
  'education',
  'hospitality',
  'energy',
] as const;
export const SIZES = ['small', 'mid-market', 'enterprise'] as const;
export const LEAD_STAGES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'] as const;
export const REGIONS = ['North America', 'Europe', 'Asia Pacific', 'Latin America'] as const;
export const ACTIVITY_TYPES = ['email', 'call', 'meeting', 'note'] as const;

export interface Lead {
  id: string;
  company: string;
  industry: (typeof INDUSTRIES)[number];
  size: (typeof SIZES)[number];
  employees: number;
  stage: (typeof LEAD_STAGES)[number];
  region: (typeof REGIONS)[number];
  city: string;
  contact: string;
  title: string;
  email: string;
  revenueMusd: number;
  painPoint: string;
  techStack: string;
}

type LeadRow = [string, string, Lead['industry'], number, Lead['stage'], Lead['region'], string, string, string, number, string, string];

const sizeOf = (employees: number): Lead['size'] => (employees < 200 ? 'small' : employees < 2000 ? 'mid-market' : 'enterprise');
const emailOf = (contact: string, company: string) =>
  `${contact.split(' ')[0]!.toLowerCase()}@${company.toLowerCase().replace(/[^a-z]+/g, '')}.example`;

// [id, company, industry, employees, stage, region, city, contact, title, revenue $M, pain point, stack]
// prettier-ignore
const rows: LeadRow[] = [
  ['LEAD-201', 'Brightwater Clinics', 'healthcare', 640, 'new', 'North America', 'Minneapolis', 'Karen Holt', 'VP Operations', 120, 'Clinic schedules are built by hand from last year\'s spreadsheets.', 'Epic, Excel'],
  ['LEAD-202', 'Meridian Health Partners', 'healthcare', 3400, 'contacted', 'North America', 'Philadelphia', 'Dr. Samuel Price', 'Chief Medical Officer', 610, 'Bed occupancy forecasts miss winter peaks.', 'Cerner, Tableau'],
  ['LEAD-203', 'Sunvale Care Homes', 'healthcare', 210, 'qualified', 'Europe', 'Bristol', 'Rachel Moss', 'Finance Director', 38, 'Agency staffing costs are only visible after month end.', 'Sage, Excel'],
  ['LEAD-204', 'Kestrel Diagnostics', 'healthcare', 95, 'new', 'Europe', 'Dublin', 'Aoife Byrne', 'Head of Lab Operations', 14, 'Reagent stock-outs delay test results.', 'LIMS, Google Sheets'],
  ['LEAD-205', 'Pacific Dental Group', 'healthcare', 480, 'proposal', 'North America', 'San Diego', 'Michael Tran', 'COO', 85, 'Twelve practices report in twelve different formats.', 'Dentrix, Power BI'],
  ['LEAD-206', 'Harbor Pharmacy Co', 'healthcare', 1250, 'contacted', 'North America', 'Baltimore', 'Denise Carter', 'Director of Supply Chain', 240, 'Seasonal demand for flu medicine is guessed.', 'SAP, Excel'],
  ['LEAD-207', 'Ironclad Fabrication', 'manufacturing', 860, 'new', 'North America', 'Pittsburgh', 'Greg Walsh', 'Plant Manager', 190, 'Machine downtime is tracked on whiteboards.', 'Epicor, Excel'],
  ['LEAD-208', 'Nordhaus Components', 'manufacturing', 2300, 'qualified', 'Europe', 'Stuttgart', 'Katrin Vogel', 'Head of Planning', 520, 'Supplier lead times changed and forecasts did not.', 'SAP S/4HANA, Qlik'],
  ['LEAD-209', 'Cascade Plastics', 'manufacturing', 150, 'contacted', 'North America', 'Portland', 'Tim Nguyen', 'Owner', 26, 'Resin price swings eat the margin without warning.', 'QuickBooks, Excel'],
  ['LEAD-210', 'Tatsumi Precision', 'manufacturing', 4100, 'new', 'Asia Pacific', 'Nagoya', 'Kenji Mori', 'General Manager, Operations', 900, 'Quality reports take two weeks to compile.', 'Oracle, Excel'],
  ['LEAD-211', 'Greenleaf Packaging', 'manufacturing', 380, 'lost', 'Europe', 'Ghent', 'Lotte Peeters', 'CFO', 64, 'Chose to build reporting in-house last year.', 'Odoo, Power BI'],
  ['LEAD-212', 'Redwood Home Goods', 'retail', 1900, 'qualified', 'North America', 'Sacramento', 'Laura Bennett', 'VP Merchandising', 410, 'Store-level overstock on seasonal lines.', 'Shopify POS, Looker'],
  ['LEAD-213', 'Corner Market Collective', 'retail', 120, 'new', 'North America', 'Austin', 'Jamal Fisher', 'Operations Lead', 22, 'Fresh produce waste above 9 percent.', 'Square, Google Sheets'],
  ['LEAD-214', 'Maison Lumière', 'retail', 540, 'contacted', 'Europe', 'Lyon', 'Céline Girard', 'Directrice financière', 95, 'Weekly sales reviews rely on one analyst.', 'Cegid, Excel'],
  ['LEAD-215', 'Fjord Outdoor', 'retail', 260, 'proposal', 'Europe', 'Oslo', 'Erik Solberg', 'CEO', 48, 'Online and store inventory are forecast separately.', 'Shopify, Excel'],
  ['LEAD-216', 'Sakura Lifestyle', 'retail', 2600, 'new', 'Asia Pacific', 'Osaka', 'Yuki Tanaka', 'Head of Planning', 560, 'New-store openings are planned without demand data.', 'SAP, Tableau'],
  ['LEAD-217', 'Tienda Viva', 'retail', 720, 'contacted', 'Latin America', 'Mexico City', 'Andrea Flores', 'Directora de Operaciones', 110, 'Promotions are judged on gut feeling.', 'Oracle Retail, Excel'],
  ['LEAD-218', 'Swiftline Freight', 'logistics', 1100, 'qualified', 'North America', 'Memphis', 'Robert King', 'VP Network Planning', 330, 'Driver shortages show up a week too late.', 'McLeod, Power BI'],
  ['LEAD-219', 'Baltic Cargo Lines', 'logistics', 430, 'new', 'Europe', 'Gdańsk', 'Piotr Zielinski', 'Operations Director', 88, 'Container dwell times vary with no explanation.', 'Navis, Excel'],
  ['LEAD-220', 'Outback Haulage', 'logistics', 310, 'contacted', 'Asia Pacific', 'Perth', 'Sarah Mitchell', 'General Manager', 57, 'Fuel cost forecasts are updated quarterly.', 'MYOB, Excel'],
  ['LEAD-221', 'Rapido Entregas', 'logistics', 950, 'new', 'Latin America', 'São Paulo', 'Thiago Ribeiro', 'Head of Last Mile', 140, 'Peak-day capacity is booked too late.', 'In-house TMS, Sheets'],
  ['LEAD-222', 'Summit Credit Union', 'finance', 480, 'qualified', 'North America', 'Boise', 'Angela Ruiz', 'Chief Financial Officer', 70, 'Board packs take ten days each quarter.', 'Jack Henry, Excel'],
  ['LEAD-223', 'Albion Insurance Brokers', 'finance', 230, 'new', 'Europe', 'Birmingham', 'Oliver Grant', 'Managing Director', 41, 'Renewal revenue is forecast from memory.', 'Applied Epic, Excel'],
  ['LEAD-224', 'Crescent Capital Advisors', 'finance', 75, 'contacted', 'North America', 'Charlotte', 'Natalie Ford', 'COO', 18, 'Client reporting is copied by hand into slides.', 'Salesforce, Excel'],
  ['LEAD-225', 'Lakeshore University', 'education', 5200, 'proposal', 'North America', 'Milwaukee', 'Dr. Helen Park', 'Vice Provost, Planning', 780, 'Enrolment forecasts drive budgets and keep missing.', 'Banner, Tableau'],
  ['LEAD-226', 'Northgate Academies', 'education', 900, 'new', 'Europe', 'Newcastle', 'Mark Ellis', 'Director of Finance', 60, 'Eighteen schools send budgets in different templates.', 'Sage, Excel'],
  ['LEAD-227', 'Bright Minds Tutoring', 'education', 140, 'contacted', 'Asia Pacific', 'Singapore', 'Priscilla Ong', 'Founder', 9, 'Tutor hiring does not follow term-time demand.', 'HubSpot, Sheets'],
  ['LEAD-228', 'Harborview Hotels', 'hospitality', 1700, 'qualified', 'North America', 'Boston', 'Steven Cole', 'VP Revenue', 290, 'Room rates are set a month ahead without pickup data.', 'Opera PMS, Excel'],
  ['LEAD-229', 'Alpine Resorts Group', 'hospitality', 2200, 'new', 'Europe', 'Innsbruck', 'Johanna Gruber', 'Head of Finance', 350, 'Ski-season staffing is planned on last year\'s numbers.', 'Protel, Excel'],
  ['LEAD-230', 'Tavola Restaurants', 'hospitality', 620, 'contacted', 'Europe', 'Milan', 'Marco Bellini', 'Operations Director', 72, 'Food cost reports arrive after the month has closed.', 'Lightspeed, Excel'],
  ['LEAD-231', 'Coral Bay Resorts', 'hospitality', 1300, 'won', 'Latin America', 'Cancún', 'Valeria Ortiz', 'General Manager', 180, 'Now live on occupancy forecasting; exploring F&B next.', 'Opera PMS, Brightpath'],
  ['LEAD-232', 'Prairie Wind Energy', 'energy', 340, 'qualified', 'North America', 'Des Moines', 'Daniel Larsen', 'Director of Asset Management', 150, 'Turbine maintenance is scheduled on fixed intervals.', 'OSIsoft PI, Excel'],
  ['LEAD-233', 'Helios Solar Parks', 'energy', 180, 'new', 'Europe', 'Seville', 'Lucía Navarro', 'Head of Operations', 55, 'Generation forecasts ignore panel soiling.', 'SCADA, Power BI'],
  ['LEAD-234', 'Southern Cross Utilities', 'energy', 3900, 'contacted', 'Asia Pacific', 'Brisbane', 'Liam Harris', 'GM Network Planning', 1200, 'Demand forecasting is split across six teams.', 'SAP, Python scripts'],
  ['LEAD-235', 'Andes Hydro', 'energy', 760, 'new', 'Latin America', 'Santiago', 'Felipe Rojas', 'Gerente de Planificación', 210, 'Reservoir levels and prices are planned separately.', 'Oracle, Excel'],
  ['LEAD-236', 'Evergreen Senior Living', 'healthcare', 1450, 'new', 'North America', 'Tampa', 'Patricia Long', 'Regional Director', 230, 'Occupancy and staffing forecasts live in different tools.', 'PointClickCare, Excel'],
];

export const LEADS: readonly Lead[] = rows.map(
  ([id, company, industry, employees, stage, region, city, contact, title, revenueMusd, painPoint, techStack]) => ({
    id, company, industry, size: sizeOf(employees), employees, stage, region, city, contact, title,
    email: emailOf(contact.replace(/^Dr\. /, ''), company), revenueMusd, painPoint, techStack,
  }),
);

/** Activities already in the CRM when a demo session starts (copied per session). */
// prettier-ignore
export const INITIAL_ACTIVITIES: ReadonlyArray<{ id: string; leadId: string; type: (typeof ACTIVITY_TYPES)[number]; notes: string; createdAt: string }> = [
  { id: 'ACT-9001', leadId: 'LEAD-202', type: 'email', notes: 'Intro email about winter occupancy forecasting.', createdAt: '2025-10-02T15:10:00Z' },
  { id: 'ACT-9002', leadId: 'LEAD-203', type: 'call', notes: 'Discovery call: agency spend is the main pain; wants a demo for the board.', createdAt: '2025-10-08T10:30:00Z' },
  { id: 'ACT-9003', leadId: 'LEAD-205', type: 'meeting', notes: 'Demo for COO and two practice managers; proposal requested.', createdAt: '2025-10-14T18:00:00Z' },
  { id: 'ACT-9004', leadId: 'LEAD-205', type: 'email', notes: 'Sent proposal for 12 practices, annual plan.', createdAt: '2025-10-20T09:15:00Z' },
  { id: 'ACT-9005', leadId: 'LEAD-208', type: 'meeting', notes: 'Workshop with planning team on supplier lead times.', createdAt: '2025-10-21T08:00:00Z' },
  { id: 'ACT-9006', leadId: 'LEAD-211', type: 'note', notes: 'Lost to in-house build; revisit next budget cycle.', createdAt: '2025-09-12T12:00:00Z' },
  { id: 'ACT-9007', leadId: 'LEAD-212', type: 'call', notes: 'Qualified: overstock on seasonal lines, budget approved for Q1.', createdAt: '2025-10-28T16:45:00Z' },
  { id: 'ACT-9008', leadId: 'LEAD-215', type: 'email', notes: 'Proposal sent covering online and store inventory.', createdAt: '2025-11-03T07:20:00Z' },
  { id: 'ACT-9009', leadId: 'LEAD-218', type: 'meeting', notes: 'Met VP Network Planning; interested in driver capacity forecasts.', createdAt: '2025-11-04T14:00:00Z' },
  { id: 'ACT-9010', leadId: 'LEAD-222', type: 'call', notes: 'CFO wants board packs automated before the March meeting.', createdAt: '2025-11-05T17:30:00Z' },
  { id: 'ACT-9011', leadId: 'LEAD-225', type: 'meeting', notes: 'Enrolment forecasting pilot scoped with the provost office.', createdAt: '2025-11-06T15:00:00Z' },
  { id: 'ACT-9012', leadId: 'LEAD-228', type: 'call', notes: 'Revenue team compares us with an RMS vendor.', createdAt: '2025-11-07T13:00:00Z' },
  { id: 'ACT-9013', leadId: 'LEAD-231', type: 'note', notes: 'Closed won: occupancy forecasting, 3 resorts.', createdAt: '2025-08-29T11:00:00Z' },
  { id: 'ACT-9014', leadId: 'LEAD-232', type: 'email', notes: 'Shared predictive maintenance case study.', createdAt: '2025-11-10T09:40:00Z' },
];
