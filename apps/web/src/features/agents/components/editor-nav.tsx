import { Box, Link as ChakraLink } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { EDITOR_SECTIONS, type EditorSection } from '../editor-sections';

/**
 * The editor's section links, kept in view while the section scrolls: a column beside it on a wide
 * screen, a row above it on a narrow one (wrapped, so none is out of sight). The current section is marked for assistive technology.
 */
export function EditorNav({ agentId, current }: { agentId: number; current: EditorSection }) {
  return (
    <Box
      as="nav"
      aria-label="Agent sections"
      position="sticky"
      // On a phone below the shell's menu bar (57px), which stays in view too.
      top={{ base: '57px', lg: '6' }}
      zIndex="sticky"
      bg="bg"
      mx={{ base: '-4', lg: '0' }}
      px={{ base: '4', lg: '0' }}
      py={{ base: '2', lg: '0' }}
      borderBottomWidth={{ base: '1px', lg: '0' }}
      alignSelf="start"
      w={{ base: 'calc(100% + 2rem)', lg: 'full' }}
    >
      <Box
        as="ul"
        listStyleType="none"
        display="flex"
        flexDirection={{ base: 'row', lg: 'column' }}
        flexWrap={{ base: 'wrap', lg: 'nowrap' }}
        gap="1"
      >
        {EDITOR_SECTIONS.map(({ id, label }) => {
          const selected = id === current;
          return (
            <li key={id}>
              <ChakraLink
                asChild
                display="block"
                whiteSpace="nowrap"
                px={{ base: '2.5', lg: '3' }}
                py={{ base: '1.5', lg: '2' }}
                fontSize={{ base: 'sm', lg: 'md' }}
                borderRadius="l2"
                fontWeight={selected ? 'semibold' : 'normal'}
                bg={selected ? 'brand.subtle' : undefined}
                color={selected ? 'brand.fg' : 'fg'}
                _hover={{ bg: selected ? 'brand.subtle' : 'bg.muted', textDecoration: 'none' }}
              >
                <Link
                  to="/agents/$Id/edit"
                  params={{ Id: String(agentId) }}
                  search={id === 'configure' ? {} : { section: id }}
                  aria-current={selected ? 'page' : undefined}
                >
                  {label}
                </Link>
              </ChakraLink>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
