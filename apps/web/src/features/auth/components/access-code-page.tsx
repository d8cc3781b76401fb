import { Box, Button, Center, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/api-error';
import { toaster } from '../../../components/ui/toaster';
import { PASSWORD_SIGNED_IN_KEY } from '../access-code';
import { betaUserSignIn } from '../api/beta-sign-in';

/** The beta access-code page: a correct code sets the flag and reloads at `/`. */
export function AccessCodePage({
  onAccepted = () => window.location.assign('/'),
}: {
  onAccepted?: () => void;
}) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      await betaUserSignIn(code);
      window.localStorage.setItem(PASSWORD_SIGNED_IN_KEY, 'true');
      onAccepted();
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        toaster.create({
          title: 'Too many attempts',
          description: 'Please wait a few minutes before trying again.',
          type: 'error',
          duration: 5000,
        });
      } else {
        toaster.create({ title: 'Error', description: 'Incorrect password', type: 'error', duration: 5000 });
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <Center minH="100vh" px="4">
      <Box as="main" w="full" maxW="sm" borderWidth="1px" rounded="lg" p="8" bg="bg.panel">
        <form onSubmit={(event) => void submit(event)}>
          <Stack gap="5">
            <Heading as="h1" size="2xl" color="brand.fg">
              Cadre
            </Heading>
            <Text color="fg.muted">Please enter the code shared with you</Text>
            <Field.Root required>
              <Field.Label>
                Access Code
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                type="password"
                name="password"
                autoComplete="off"
                required
                value={code}
                onChange={(event) => setCode(event.target.value)}
              />
            </Field.Root>
            <Button type="submit" colorPalette="brand" loading={pending}>
              Access
            </Button>
          </Stack>
        </form>
      </Box>
    </Center>
  );
}
