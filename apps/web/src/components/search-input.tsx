import { Input, InputGroup } from '@chakra-ui/react';
import { FiSearch } from 'react-icons/fi';

/** A labelled search box; the placeholder is also its accessible name. */
export function SearchInput(props: {
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <InputGroup startElement={<FiSearch aria-hidden="true" />} maxW={{ base: 'full', md: 'md' }}>
      <Input
        type="search"
        placeholder={props.placeholder}
        aria-label={props.placeholder}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </InputGroup>
  );
}
