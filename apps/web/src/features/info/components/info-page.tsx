import { Heading, Stack, Text } from '@chakra-ui/react';

/** The help page (spec section 2, "Info page"). */
export function InfoPage() {
  return (
    <Stack gap="4" maxW="3xl">
      <Heading as="h1" size="2xl">
        Welcome to Cadre
      </Heading>
      <Text>
        Cadre is a beta platform for building LLM-powered agents: connect the services you use, give an agent
        their tools, and chat with it.
      </Text>
      <Heading as="h2" size="lg">
        Getting Started
      </Heading>
      <Text>
        Connect a service under Services, create an agent under Agents and attach the service's tools to it,
        then press Start to chat with the agent. Cadre is available in English.
      </Text>
    </Stack>
  );
}
