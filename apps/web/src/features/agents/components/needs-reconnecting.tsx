import { Badge, HStack, Link as ChakraLink } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { FiAlertTriangle } from 'react-icons/fi';
import { AGENT_TEXT } from '../constants';

/** A service's tools the chat cannot run until it is connected again, and the way to do it. */
export function NeedsReconnecting({ service }: { service: string }) {
  return (
    <HStack gap="2" wrap="wrap" fontSize="sm">
      <Badge colorPalette="orange" variant="subtle">
        <FiAlertTriangle aria-hidden="true" /> {AGENT_TEXT.needsReconnecting}
      </Badge>
      <ChakraLink asChild color="brand.fg" textDecoration="underline" minH="6">
        <Link to="/services">{AGENT_TEXT.reconnect(service)}</Link>
      </ChakraLink>
    </HStack>
  );
}
