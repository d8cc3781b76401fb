import { Button, HStack, Link, Text } from '@chakra-ui/react';
import { DEMOS, demoStartPath } from '@cadre/contract';

/**
 * What a demo visitor can do next, so no demo conversation ends in a dead end: start over, try
 * another demo, or sign up. Links open at the top level (the demo may sit in a frame).
 */
export function DemoNextSteps({ agentName, onStartOver }: { agentName?: string; onStartOver?: () => void }) {
  const others = DEMOS.filter((d) => d.title !== agentName);
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
        <Link key={d.name} href={demoStartPath(d.name)} target="_top" colorPalette="blue">
          Try the {d.title} demo
        </Link>
      ))}
      <Link href="/" target="_top" colorPalette="blue" fontWeight="semibold">
        Sign up to build your own agent
      </Link>
    </HStack>
  );
}
