import { Center, Heading, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { loginToDemo } from '../api/demo-login';
import { DEMO_LABELS, DEMO_NAMES, DEMO_TEXT, isDemoName } from '../constants';

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
        // The alert wraps the heading so that it stays a heading for assistive technology.
        <Stack align="center" gap="4">
          <div role="alert">
            <Heading as="h1" size="2xl">
              {DEMO_TEXT.invalid}
            </Heading>
          </div>
          {/* A mistyped demo link is not a dead end: offer the real ones and sign-up. */}
          <Stack as="nav" aria-label="Demos" align="center" gap="2">
            {DEMO_NAMES.map((name) => (
              <Link key={name} href={`/public/demosRedirect?demo=${name}`} colorPalette="blue">
                Try the {DEMO_LABELS[name]} demo
              </Link>
            ))}
            <Link href="/" colorPalette="blue" fontWeight="semibold">
              Sign up to build your own agent
            </Link>
          </Stack>
        </Stack>
      )}
    </Center>
  );
}
