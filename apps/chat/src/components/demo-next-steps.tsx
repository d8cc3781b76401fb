import { Button, HStack, Link, Stack, Text } from '@chakra-ui/react';

/** The public demos, by the name their agent carries and the redirect that opens each. */
const DEMOS = [
  { agent: 'VC Analyst', demo: 'vcdemo' },
  { agent: 'Customer Support', demo: 'customerservicedemo' },
  { agent: 'Sales Assistant', demo: 'salesoutreachdemo' },
] as const;

const demoUrl = (demo: string) => `/public/demosRedirect?demo=${demo}`;

/**
 * What a demo visitor can do next, so no demo conversation ends in a dead end: start over, try
 * another demo, or sign up. Links open at the top level (the demo may sit in a frame).
 */
export function DemoNextSteps({ agentName, onStartOver }: { agentName?: string; onStartOver?: () => void }) {
  const others = DEMOS.filter((d) => d.agent !== agentName);
  return (
    <HStack
      as="nav"
      aria-label="Next steps"
      data-testid="demo-next-steps"
      gap="3"
      px="3"
      py="1.5"
      borderTopWidth="1px"
      fontSize="sm"
      flexWrap="wrap"
      bg="bg.subtle"
    >
      <Text color="fg.muted">Next:</Text>
      {onStartOver && (
        <Button size="xs" variant="outline" onClick={onStartOver}>
          Start over
        </Button>
      )}
      {others.map((d) => (
        <Link key={d.demo} href={demoUrl(d.demo)} target="_top" colorPalette="blue">
          Try the {d.agent} demo
        </Link>
      ))}
      <Link href="/" target="_top" colorPalette="blue" fontWeight="semibold">
        Sign up to build your own agent
      </Link>
    </HStack>
  );
}

/** A demo session that has ended: offer the demos again and sign-up, never "reopen your agent". */
export function DemoEnded() {
  return (
    <Stack textAlign="center" gap="3" align="center">
      <Text fontWeight="semibold">Your demo session has ended</Text>
      <Text color="fg.muted" fontSize="sm">
        Demo sessions end after a while without activity. Start a demo again, or sign up to build your own
        agent.
      </Text>
      <DemoNextSteps />
    </Stack>
  );
}
