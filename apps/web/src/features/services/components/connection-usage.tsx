import { HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { FiAlertTriangle } from 'react-icons/fi';
import type { Service } from '../api/services-api';
import { SERVICE_TEXT } from '../constants';
import { timeAgo } from '../services-logic';

/** A time as "5 minutes ago", with the exact time on hover and for machines. */
function Ago({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()}>
      {timeAgo(iso)}
    </time>
  );
}

/**
 * When a tool last used the caller's connection and the last error it met. The texts say what
 * they are ("Last used", "Last error"), so they read the same aloud; the card names this block
 * as its description (`id`).
 */
export function ConnectionUsage({ service, id }: { service: Service; id: string }) {
  const error = service.last_error;
  return (
    <Stack id={id} gap="1" fontSize="xs" data-testid="connection-usage">
      <Text color="fg.muted">
        {service.last_used_at ? (
          <>
            {SERVICE_TEXT.lastUsed} <Ago iso={service.last_used_at} />
          </>
        ) : (
          SERVICE_TEXT.neverUsed
        )}
      </Text>
      {error && (
        <HStack align="start" gap="1.5" color="fg.error">
          <Icon as={FiAlertTriangle} aria-hidden="true" mt="0.5" flexShrink={0} />
          <Text lineClamp={2} title={error.message} wordBreak="break-word">
            {SERVICE_TEXT.lastError} <Ago iso={error.at} />: {error.message}
          </Text>
        </HStack>
      )}
    </Stack>
  );
}
