import { Button, Center, Heading, HStack, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { DEMOS, demoStartPath } from '@cadre/contract';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { loginToDemo } from '../api/demo-login';
import { DEMO_TEXT, isDemoName } from '../constants';

/** /public/demosRedirect?demo={name} (spec section 2). */
const leaveForDemo = (url: string) => {
  window.location.href = url;
};

export function DemosRedirectPage({
  demo,
  navigate = leaveForDemo,
}: {
  demo: string | undefined;
  navigate?: (url: string) => void;
}) {
  const { chainlitDemosUrl } = useRuntimeConfig();
  const valid = isDemoName(demo);

  useEffect(() => {
    if (!isDemoName(demo)) return;
    let cancelled = false;
    // A failed login still lands on the demo server, which shows its own sign-in page.
    void loginToDemo(chainlitDemosUrl, demo)
      .catch(() => `${chainlitDemosUrl.replace(/\/+$/, '')}/`)
      .then((url) => {
        if (!cancelled) navigate(url);
      });
    return () => {
      cancelled = true;
    };
  }, [demo, chainlitDemosUrl, navigate]);

  return (
    <Center as="main" minH="100vh" px="6">
      {valid ? (
        <Stack align="center" gap="4" aria-busy="true">
          <Spinner size="lg" color="brand.fg" />
          <Text fontSize="lg">{DEMO_TEXT.redirecting}</Text>
        </Stack>
      ) : (
        <Stack gap="5" maxW="md" w="full">
          {/* The alert wraps the heading so that it stays a heading for assistive technology. */}
          <div role="alert">
            <Heading as="h1" size="2xl">
              {DEMO_TEXT.invalid}
            </Heading>
          </div>
          <Text>There is no demo at this address. Choose one of the demos:</Text>
          <Stack as="nav" aria-label="Demos" gap="2">
            {DEMOS.map(({ name, title }) => (
              <Button key={name} asChild variant="outline" justifyContent="flex-start">
                <a href={demoStartPath(name)}>Try the {title} demo</a>
              </Button>
            ))}
          </Stack>
          <HStack gap="4" wrap="wrap">
            <Link href="/" color="brand.fg">
              ← Go to Cadre
            </Link>
            <Link href="/" color="brand.fg" fontWeight="semibold">
              Sign up to build your own agent
            </Link>
          </HStack>
        </Stack>
      )}
    </Center>
  );
}
