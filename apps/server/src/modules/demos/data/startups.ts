/**
 * The venture-capital demo's sample deal flow: fictional startups (any resemblance to real companies
 * is accidental). Revenue is annual recurring revenue in millions of US dollars; growth is
 * year-over-year in percent; burn is monthly net burn in millions.
 */
export const SECTORS = [
  'fintech',
  'healthtech',
  'climate',
  'ai',
  'devtools',
  'cybersecurity',
  'ecommerce',
  'edtech',
  'logistics',
  'proptech',
] as const;
export const STAGES = ['Pre-seed', 'Seed', 'Series A', 'Series B', 'Series C'] as const;
export const COUNTRIES = [
  'United States',
  'United Kingdom',
  'Germany',
  'France',
  'Netherlands',
  'Sweden',
  'Spain',
  'Estonia',
  'Israel',
  'India',
  'Singapore',
  'Brazil',
  'Canada',
  'Nigeria',
  'Kenya',
  'Australia',
] as const;

export type Sector = (typeof SECTORS)[number];
export type Stage = (typeof STAGES)[number];

export interface Startup {
  id: string;
  name: string;
  sector: Sector;
  stage: Stage;
  country: (typeof COUNTRIES)[number];
  city: string;
  founded: number;
  employees: number;
  revenueMusd: number;
  growthPct: number;
  raisedMusd: number;
  grossMarginPct: number;
  burnMusd: number;
  founders: string;
  description: string;
}

type Row = [
  string, string, Sector, Stage, Startup['country'], string, number, number, number, number, number, number, number, string, string,
];

// prettier-ignore
const rows: Row[] = [
  ['STU-101', 'Novapay', 'fintech', 'Series A', 'United Kingdom', 'London', 2020, 64, 7.2, 142, 21, 71, 0.9, 'Amara Okafor, Tom Reyes', 'Embedded payments and instant payouts for online marketplaces.'],
  ['STU-102', 'Ledgerline', 'fintech', 'Seed', 'Germany', 'Berlin', 2022, 18, 1.1, 210, 4.5, 78, 0.3, 'Jonas Weber, Mila Kraus', 'Automated bookkeeping and VAT filing for small businesses.'],
  ['STU-103', 'Quantbridge', 'fintech', 'Series B', 'United States', 'New York', 2018, 190, 31.5, 64, 88, 68, 2.4, 'Priya Raman, Ethan Cole', 'Treasury and cash management software for mid-market CFOs.'],
  ['STU-104', 'Kivu Credit', 'fintech', 'Series A', 'Kenya', 'Nairobi', 2019, 85, 5.4, 118, 16, 62, 0.8, 'Wanjiru Kamau, David Otieno', 'Working-capital loans for small retailers scored on mobile-money history.'],
  ['STU-105', 'Paysprout', 'fintech', 'Pre-seed', 'Brazil', 'São Paulo', 2024, 6, 0.2, 0, 1.2, 55, 0.1, 'Lucas Almeida', 'Pix-based recurring billing for gyms and schools.'],
  ['STU-106', 'Clearfolio', 'fintech', 'Series C', 'United States', 'Chicago', 2016, 420, 74, 38, 210, 74, 3.9, 'Hannah Brooks, Omar Said', 'Portfolio reporting platform for registered investment advisers.'],
  ['STU-107', 'Mediloop', 'healthtech', 'Series A', 'Netherlands', 'Amsterdam', 2020, 52, 4.8, 96, 18, 66, 0.9, 'Sanne de Vries, Pieter Bos', 'Remote monitoring for patients after cardiac surgery.'],
  ['STU-108', 'Lumina Health', 'healthtech', 'Series B', 'United States', 'Boston', 2017, 240, 26, 71, 95, 58, 3.1, 'Grace Liu, Marcus Hill', 'AI triage and scheduling for outpatient clinics.'],
  ['STU-109', 'Carewell', 'healthtech', 'Seed', 'United Kingdom', 'Manchester', 2022, 21, 0.9, 260, 5, 70, 0.35, 'Fatima Sheikh, Owen Price', 'Care-home staffing marketplace with verified nurses.'],
  ['STU-110', 'Genomica Labs', 'healthtech', 'Series A', 'Israel', 'Tel Aviv', 2019, 74, 3.6, 88, 27, 61, 1.4, 'Noa Levi, Ariel Ben-David', 'Rapid genomic tests for antibiotic resistance.'],
  ['STU-111', 'Pulsewise', 'healthtech', 'Pre-seed', 'India', 'Bengaluru', 2024, 9, 0.1, 0, 0.8, 60, 0.06, 'Arjun Mehta, Kavya Iyer', 'Wearable-based early warning for diabetic patients.'],
  ['STU-112', 'Verdant Grid', 'climate', 'Series B', 'Germany', 'Munich', 2017, 160, 22, 83, 120, 41, 3.2, 'Lena Fischer, Karl Braun', 'Software that schedules home batteries and heat pumps for grid operators.'],
  ['STU-113', 'Carbonfield', 'climate', 'Series A', 'Sweden', 'Stockholm', 2020, 47, 3.9, 124, 24, 52, 1.1, 'Elin Lindqvist, Anders Berg', 'Measurement and verification of soil carbon for farms.'],
  ['STU-114', 'Tidal Forge', 'climate', 'Seed', 'United Kingdom', 'Edinburgh', 2021, 23, 0.6, 150, 6.5, 35, 0.5, 'Callum Reid, Isla Grant', 'Modular tidal turbines for island microgrids.'],
  ['STU-115', 'Solari Homes', 'climate', 'Series A', 'Spain', 'Valencia', 2019, 95, 9.8, 77, 19, 29, 0.9, 'Carmen Ruiz, Javier Soto', 'Rooftop solar installation financed as a monthly subscription.'],
  ['STU-116', 'Hydrogenix', 'climate', 'Series C', 'Netherlands', 'Rotterdam', 2015, 310, 41, 46, 260, 33, 5.6, 'Bram Visser, Julia Jansen', 'Electrolyser stacks for green hydrogen at ports.'],
  ['STU-117', 'Cortexa', 'ai', 'Series A', 'France', 'Paris', 2021, 58, 6.1, 230, 32, 73, 1.6, 'Camille Laurent, Hugo Martin', 'Private LLM assistants for legal and compliance teams.'],
  ['STU-118', 'Synthwave AI', 'ai', 'Seed', 'United States', 'San Francisco', 2023, 14, 1.4, 380, 9, 69, 0.4, 'Riley Chen, Sam Patel', 'Synthetic training data for computer-vision models.'],
  ['STU-119', 'Inferlane', 'ai', 'Series B', 'United States', 'Seattle', 2019, 175, 28, 135, 140, 61, 3.8, 'Nina Alvarez, Ben Foster', 'GPU inference scheduling that cuts model-serving costs.'],
  ['STU-120', 'Parlance', 'ai', 'Series A', 'Canada', 'Toronto', 2020, 66, 5.2, 160, 25, 76, 1.2, 'Chloe Martin, Aiden Wong', 'Voice agents for customer-service call centres.'],
  ['STU-121', 'Vectorly', 'ai', 'Pre-seed', 'Estonia', 'Tallinn', 2024, 5, 0.05, 0, 0.6, 80, 0.05, 'Kristjan Tamm', 'Vector search engine that runs inside the browser.'],
  ['STU-122', 'Kernelcraft', 'devtools', 'Series A', 'Germany', 'Hamburg', 2020, 41, 4.1, 105, 15, 84, 0.8, 'Felix Hoffmann, Anna Wolf', 'Preview environments for every pull request.'],
  ['STU-123', 'Stackpilot', 'devtools', 'Seed', 'India', 'Pune', 2022, 19, 0.8, 175, 3.5, 82, 0.2, 'Rohan Desai, Sneha Kulkarni', 'Infrastructure-as-code reviews with policy checks.'],
  ['STU-124', 'Buildkite Forge', 'devtools', 'Series B', 'Australia', 'Melbourne', 2016, 140, 19, 58, 70, 81, 1.9, 'Jack Turner, Mia Nguyen', 'Self-hosted CI runners with flaky-test detection.'],
  ['STU-125', 'Logstream', 'devtools', 'Series A', 'Israel', 'Haifa', 2019, 60, 5.6, 92, 22, 79, 1.1, 'Yael Cohen, Omer Katz', 'Log analytics priced by query instead of by ingest.'],
  ['STU-126', 'Sentrygate', 'cybersecurity', 'Series B', 'Israel', 'Tel Aviv', 2017, 210, 33, 74, 115, 80, 3.0, 'Daniel Mizrahi, Tal Shapiro', 'Identity threat detection for SaaS applications.'],
  ['STU-127', 'Cipherwell', 'cybersecurity', 'Series A', 'United Kingdom', 'Cambridge', 2020, 48, 4.4, 120, 20, 77, 1.0, 'Sophie Clarke, James Evans', 'Post-quantum encryption libraries for banks.'],
  ['STU-128', 'Phishnet', 'cybersecurity', 'Seed', 'Singapore', 'Singapore', 2022, 16, 1.0, 190, 4, 75, 0.25, 'Wei Ling Tan, Marcus Lim', 'Phishing simulations and training in local languages.'],
  ['STU-129', 'Bastion Labs', 'cybersecurity', 'Series C', 'United States', 'Austin', 2015, 380, 62, 41, 240, 82, 2.7, 'Laura Kim, Victor Ramos', 'Attack-surface management for mid-size enterprises.'],
  ['STU-130', 'Cartwise', 'ecommerce', 'Series A', 'France', 'Lyon', 2019, 70, 8.3, 69, 17, 48, 0.7, 'Léa Dubois, Antoine Moreau', 'Checkout optimisation for independent fashion brands.'],
  ['STU-131', 'Shelfspace', 'ecommerce', 'Seed', 'Nigeria', 'Lagos', 2021, 34, 1.6, 240, 5.5, 22, 0.4, 'Chidi Nwosu, Ifeoma Eze', 'B2B ordering app for neighbourhood shops.'],
  ['STU-132', 'Returnly Go', 'ecommerce', 'Series B', 'United States', 'Los Angeles', 2017, 150, 24, 52, 80, 57, 1.8, 'Olivia Scott, Noah Davis', 'Returns and exchanges platform that keeps revenue in the store.'],
  ['STU-133', 'Brightlearn', 'edtech', 'Series A', 'India', 'Delhi', 2019, 120, 6.8, 88, 23, 64, 1.3, 'Ananya Gupta, Vikram Singh', 'Live maths tutoring in small groups for grades 6 to 10.'],
  ['STU-134', 'Skillforge', 'edtech', 'Seed', 'Spain', 'Barcelona', 2022, 17, 0.7, 160, 3, 72, 0.2, 'Pablo García, Marta López', 'Apprenticeship platform for software testers.'],
  ['STU-135', 'Campusly', 'edtech', 'Series B', 'United States', 'Atlanta', 2016, 200, 21, 35, 75, 69, 2.2, 'Jasmine Reed, Tyler Brooks', 'Student success software for community colleges.'],
  ['STU-136', 'Freightory', 'logistics', 'Series A', 'Netherlands', 'Utrecht', 2020, 55, 7.5, 101, 21, 39, 1.0, 'Daan Smit, Eva Mulder', 'Digital freight forwarding for European road transport.'],
  ['STU-137', 'Lastmile Labs', 'logistics', 'Seed', 'Brazil', 'Curitiba', 2021, 29, 1.3, 205, 4.2, 27, 0.35, 'Mariana Costa, Rafael Lima', 'Route optimisation for e-bike delivery fleets.'],
  ['STU-138', 'Portwise', 'logistics', 'Series B', 'Singapore', 'Singapore', 2017, 165, 18, 61, 65, 44, 1.7, 'Rajesh Kumar, Mei Chen', 'Container yard planning software for port operators.'],
  ['STU-139', 'Habitat OS', 'proptech', 'Series A', 'United Kingdom', 'Bristol', 2019, 62, 5.9, 84, 19, 70, 0.9, 'Ella Wright, Harry Baker', 'Operating system for build-to-rent apartment managers.'],
  ['STU-140', 'Keyhive', 'proptech', 'Seed', 'Canada', 'Vancouver', 2022, 15, 0.9, 145, 3.8, 66, 0.25, 'Zoe Campbell, Liam Fraser', 'Smart-lock access for short-term rental cleaners.'],
  ['STU-141', 'Tenantly', 'proptech', 'Series A', 'Germany', 'Frankfurt', 2020, 44, 3.4, 97, 14, 63, 0.8, 'Paul Schneider, Clara Wagner', 'Tenant communication and repairs app for housing associations.'],
  ['STU-142', 'Flowbank', 'fintech', 'Seed', 'Estonia', 'Tartu', 2023, 12, 0.6, 320, 3.2, 81, 0.2, 'Mari Kask, Siim Saar', 'Multi-currency business accounts for remote-first startups.'],
];

export const STARTUPS: readonly Startup[] = rows.map(
  ([id, name, sector, stage, country, city, founded, employees, revenueMusd, growthPct, raisedMusd, grossMarginPct, burnMusd, founders, description]) => ({
    id, name, sector, stage, country, city, founded, employees, revenueMusd, growthPct, raisedMusd, grossMarginPct, burnMusd, founders, description,
  }),
);
