import { NativeSelect } from '@chakra-ui/react';

interface SelectOption<V extends string | number> {
  value: V;
  label: string;
}

/**
 * A native select over typed options: `onChange` gets the chosen option's own value (a number
 * stays a number), never the DOM's string. Native, so a phone shows its own picker. Label it with
 * a `Field.Label` around it or with `aria-label`.
 */
export function Select<V extends string | number>(props: {
  value: V;
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
  size?: 'sm' | 'md';
  maxW?: string;
  disabled?: boolean;
  'aria-label'?: string;
}) {
  const { options, onChange } = props;
  return (
    <NativeSelect.Root size={props.size} maxW={props.maxW} disabled={props.disabled}>
      <NativeSelect.Field
        aria-label={props['aria-label']}
        value={props.value}
        onChange={(event) => {
          const chosen = options.find((o) => String(o.value) === event.currentTarget.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
