import { Box, Button, Code, DataList, Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useRuntimeConfig } from '../../../config/runtime-config-context';
import { useSession } from '../../../lib/session';

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** /debug_info (spec section 2): environment, profile fields, access token, and the way to /copilot. */
export function DebugPage() {
  const config = useRuntimeConfig();
  const session = useSession();
  const profile = Object.entries(session.profile ?? {});
  return (
    <Stack gap="8" maxW="4xl">
      <Heading as="h1" size="2xl">
        Debug
      </Heading>
      <Stack as="section" gap="3" aria-labelledby="env-heading">
        <Heading as="h2" size="lg" id="env-heading">
          Environment
        </Heading>
        <DataList.Root orientation="horizontal" size="sm">
          {Object.entries(config).map(([key, value]) => (
            <DataList.Item key={key}>
              <DataList.ItemLabel minW="48">{key}</DataList.ItemLabel>
              <DataList.ItemValue wordBreak="break-all">
                {value === '' ? (
                  <Text as="span" color="fg.muted">
                    (not set)
                  </Text>
                ) : (
                  <Code>{show(value)}</Code>
                )}
              </DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
      </Stack>
      <Stack as="section" gap="3" aria-labelledby="profile-heading">
        <Heading as="h2" size="lg" id="profile-heading">
          Profile
        </Heading>
        {profile.length === 0 ? (
          <Text color="fg.muted">
            {config.disableAuth0 ? 'Sign-in is switched off; the server uses its mock user.' : 'No profile.'}
          </Text>
        ) : (
          <DataList.Root orientation="horizontal" size="sm">
            {profile.map(([key, value]) => (
              <DataList.Item key={key}>
                <DataList.ItemLabel minW="48">{key}</DataList.ItemLabel>
                <DataList.ItemValue wordBreak="break-all">{show(value)}</DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
        )}
      </Stack>
      <Stack as="section" gap="3" aria-labelledby="token-heading">
        <Heading as="h2" size="lg" id="token-heading">
          Access token
        </Heading>
        <Box
          borderWidth="1px"
          rounded="md"
          p="3"
          maxH="48"
          overflowY="auto"
          tabIndex={0}
          aria-label="Access token"
        >
          <Code
            display="block"
            whiteSpace="pre-wrap"
            wordBreak="break-all"
            bg="transparent"
            data-testid="access-token"
          >
            {session.accessToken ?? '(none)'}
          </Code>
        </Box>
      </Stack>
      <Button asChild colorPalette="brand" alignSelf="flex-start">
        <Link to="/copilot">Go to Copilot</Link>
      </Button>
    </Stack>
  );
}
