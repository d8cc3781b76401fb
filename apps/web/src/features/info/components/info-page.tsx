import { Alert, Box, Heading, HStack, Link, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

const SECTIONS = [
  { id: 'getting-started', title: 'Getting Started' },
  { id: 'access-and-data-rights', title: 'Access and Data Rights' },
  { id: 'services', title: 'Services' },
  { id: 'agents', title: 'Agents' },
  { id: 'agent-settings', title: 'Agent Settings' },
  { id: 'example-agents', title: 'Example agents' },
] as const;

function Section({ id, children }: { id: (typeof SECTIONS)[number]['id']; children: ReactNode }) {
  const title = SECTIONS.find((s) => s.id === id)?.title;
  return (
    <Stack as="section" gap="3" aria-labelledby={`${id}-heading`} scrollMarginTop="20">
      <Heading as="h2" size="xl" id={`${id}-heading`}>
        <span id={id}>{title}</span>
      </Heading>
      {children}
    </Stack>
  );
}

function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <List.Root gap="1.5" ps="5">
      {items.map((item, i) => (
        <List.Item key={i}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

const B = ({ children }: { children: ReactNode }) => (
  <Text as="strong" fontWeight="semibold">
    {children}
  </Text>
);

/**
 * The help page (spec section 2, "Info page"). The route gives what other features own: `dataRights`
 * (the export and delete the data rights section offers), `readyAssistant` (the offer to chat at
 * once) and `templates` (the agents one press creates, under the example agents).
 */
export function InfoPage({
  dataRights,
  readyAssistant,
  templates,
}: {
  dataRights: ReactNode;
  readyAssistant?: ReactNode;
  templates?: ReactNode;
}) {
  return (
    <Stack gap="10" maxW="3xl" pb="10">
      <Stack gap="3">
        <Heading as="h1" size="3xl">
          Welcome to Cadre
        </Heading>
        <Text fontSize="lg">
          Cadre is a platform for building LLM-powered agents. Connect the services you use, give an agent the
          tools of those services, and chat with it. Cadre is in beta.
        </Text>
        <Text color="fg.muted">Language support: Cadre is available in English.</Text>
        <Box as="nav" aria-label="On this page">
          <HStack as="ul" listStyleType="none" gap="4" flexWrap="wrap" fontSize="sm">
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <Link href={`#${s.id}`} color="brand.fg">
                  {s.title}
                </Link>
              </li>
            ))}
          </HStack>
        </Box>
      </Stack>
      {readyAssistant}
      <GettingStarted />
      <AccessAndDataRights dataRights={dataRights} />
      <ServicesHelp />
      <AgentsHelp />
      <AgentSettingsHelp />
      <ExampleAgents templates={templates} />
    </Stack>
  );
}

/** Getting started: register services, create an agent, chat with it. */
function GettingStarted() {
  return (
    <Section id="getting-started">
      <Bullets
        items={[
          <>
            Open <B>Services</B> and register the services your agent should use. Some work right away, others
            ask you to sign in to the provider or to enter an API key.
          </>,
          <>
            Open <B>Agents</B>, press <B>Create New Agent</B>, give the agent a name and a description, and
            add the tools of your active services.
          </>,
          <>
            Press <B>Start</B> next to the agent to chat with it. Ask in plain English; the agent decides
            which of its tools to use.
          </>,
        ]}
      />
    </Section>
  );
}

/** Who gets in, what agents may do to real accounts, and the person's data. */
function AccessAndDataRights({ dataRights }: { dataRights: ReactNode }) {
  return (
    <Section id="access-and-data-rights">
      <Text>
        Cadre is a closed beta: you need the access code shared with you and an account with our sign-in
        provider. An agent can only use the services you registered yourself, and only the tools you added to
        it.
      </Text>
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Agents act on your real accounts</Alert.Title>
          <Alert.Description>
            Agents with write-access tools (for example sending mail or creating calendar events) can change
            your real accounts. Only add the tools an agent needs, and read every approval request before you
            confirm it.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Text>
        All interactions and data transfers are logged and linked to your user id. This data is deleted only
        on request: you can download a copy of everything stored about you, or delete it, here.
      </Text>
      {dataRights}
    </Section>
  );
}

/** The Services page: how each kind of service signs in, and custom MCP servers. */
function ServicesHelp() {
  return (
    <Section id="services">
      <Text>
        A service connects Cadre to an app such as your mail or calendar. Each card on the Services page shows
        the service's status (ACTIVE or INACTIVE) and how it signs in.
      </Text>
      <Bullets
        items={[
          <>
            <B>OAuth</B>: <B>Register Service</B> opens the provider's sign-in page in a new tab. Grant access
            there, then come back: the Services page refreshes itself and shows the service as ACTIVE.
          </>,
          <>
            <B>API key</B>: <B>Register Service</B> asks for the key in the <B>Enter API Key</B> dialog. The
            key is stored encrypted and is never shown again.
          </>,
          <>
            <B>No authentication</B>: <B>Register Service</B> activates the service immediately.
          </>,
          <>
            <B>Disconnect Service</B> removes the connection and its stored credentials; agents that use its
            tools can no longer call them until you register the service again.
          </>,
          <>
            <B>View Tools</B> lists everything the service can do, with a search box.
          </>,
          <>
            <B>Custom APIs</B>: with <B>Add your own MCP server</B> on the Services page you can add your own
            remote MCP server by its https URL (with an optional header such as an API key, kept encrypted),
            and its tools become available to your agents like those of any other service. Only you see it.
            Other custom APIs cannot be integrated yet.
          </>,
        ]}
      />
    </Section>
  );
}

/** The Agents page and its actions. */
function AgentsHelp() {
  return (
    <Section id="agents">
      <Text>The Agents page lists your agents with a search box that tolerates typos.</Text>
      <Bullets
        items={[
          <>
            <B>Start</B> opens a full-screen chat with the agent.
          </>,
          <>
            <B>Create Agent</B>: the <B>Create New Agent</B> button, always shown at the bottom right, opens
            an empty agent form.
          </>,
          <>
            <B>Edit</B>: open the three-dots menu in the <B>Actions</B> column and choose Edit. The same menu
            has <B>Duplicate</B> (a copy named "… (Copy)" with the same description and tools, without
            guidelines) and <B>Delete</B> (asks for confirmation first).
          </>,
          <>
            The <B>Tools</B> column shows how many tools an agent has; press it to see them.
          </>,
        ]}
      />
    </Section>
  );
}

/** What each field of the agent form does. */
function AgentSettingsHelp() {
  return (
    <Section id="agent-settings">
      <Bullets
        items={[
          <>
            <B>Name</B> and <B>Description</B> are required. The description tells the agent what it is for.
          </>,
          <>
            <B>Guidelines</B> are optional instructions that shape the agent's behaviour, for example "Always
            answer in bullet points" or "Never book meetings before 9 am". The more precise, the better.
          </>,
          <>
            <B>Tools</B>: under <B>Active Services</B>, click a service to see its actions and add them with
            the plus button. Added tools are grouped by app; remove one with its ×.
          </>,
          <>
            Tools that write or send something ask for your approval in the chat before they run. Nothing is
            sent until you approve that exact call.
          </>,
        ]}
      />
    </Section>
  );
}

/** Agents to start from, and the services each needs; then those one press creates. */
function ExampleAgents({ templates }: { templates: ReactNode }) {
  return (
    <Section id="example-agents">
      <Text>
        Some agents to start from. Each says which services it needs; register them on the Services page
        first, then add their tools to the agent.
      </Text>
      <Bullets
        items={[
          <>
            <B>Mail and internet search</B>: researches a topic with <B>Web Search</B> (needs a Brave Search
            API key) and drafts a reply with a mail service. Cadre has no built-in mail service: mail services
            such as Gmail appear on the Services page once an administrator connects Cadre to Composio.
          </>,
          <>
            <B>Place search</B>: <B>Place Search</B> finds restaurants, shops or addresses near a location
            (needs a Google Maps Platform API key).
          </>,
          <>
            <B>Calendar management</B>: the built-in <B>Calendar</B> needs no account. The agent lists, finds,
            creates and moves events; creating, moving and deleting ask for your approval.
          </>,
          <>
            <B>HackerNews and YouTube search</B>: <B>Hacker News</B> needs no account and finds top stories
            and discussions; <B>YouTube Search</B> finds videos on a subject (needs a Google API key with the
            YouTube Data API enabled).
          </>,
        ]}
      />
      {templates && (
        <>
          <Text>
            Or start from one of these: one press connects the services it needs (none needs an account), adds
            their tools and opens the agent's chat.
          </Text>
          {templates}
        </>
      )}
    </Section>
  );
}
