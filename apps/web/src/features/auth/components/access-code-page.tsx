import { Box, Button, Center, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/api-error';
import { toaster } from '../../../components/ui/toaster';
import { PASSWORD_SIGNED_IN_KEY } from '../access-code';
import { betaUserSignIn } from '../api/beta-sign-in';
import { safeReturnPath } from '../return-to';
import { FieldMessage, FieldRoot } from '../../../components/form-field';

export const WRONG_CODE = 'This code is not right. Codes are case-sensitive: check it and try again.';

/**
 * The beta access-code page, shown in place of the page asked for (the address stays): a correct
 * code sets the flag and reloads that page, so sign-in comes back to it rather than to /info (an
 * address the app would not return to after sign-in reloads at `/`, as the spec's gate does).
 */
export function AccessCodePage({
  onAccepted = () => window.location.assign(safeReturnPath(pageAskedFor())),
}: {
  onAccepted?: () => void;
}) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  // Set by a refused code (besides the spec's toast); typing clears it.
  const [wrong, setWrong] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    try {
      await betaUserSignIn(code);
      window.localStorage.setItem(PASSWORD_SIGNED_IN_KEY, 'true');
      onAccepted();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rate_limited') {
        toaster.create({
          title: 'Too many attempts',
          description: 'Please wait a few minutes before trying again.',
          type: 'error',
          duration: 5000,
        });
      } else {
        toaster.create({ title: 'Error', description: 'Incorrect password', type: 'error', duration: 5000 });
        setWrong(true);
        input.current?.focus();
        input.current?.select();
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
            <FieldRoot required invalid={wrong}>
              <Field.Label>
                Access Code
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                ref={input}
                type="password"
                name="password"
                autoComplete="off"
                required
                value={code}
                onChange={(event) => {
                  setCode(event.target.value);
                  setWrong(false);
                }}
              />
              <FieldMessage error={wrong ? WRONG_CODE : undefined} />
            </FieldRoot>
            <Button type="submit" colorPalette="brand" loading={pending}>
              Access
            </Button>
          </Stack>
        </form>
      </Box>
    </Center>
  );
}

const pageAskedFor = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;
