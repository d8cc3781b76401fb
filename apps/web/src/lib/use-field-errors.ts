import { useCallback, useState } from 'react';
import { formErrors, type FormErrors } from '../api/api-error';
import { useFocusFirstInvalid } from './focus-invalid';

/**
 * A form's refusals, each under the field it names: the API's 422 issues (by the field path in their
 * `loc`) and the form's own checks, the rest as text for a `FormErrorsAlert`. Whenever a field gets
 * a message, focus moves to the first field marked inside `ref`'s element; editing a field clears
 * its message (`clear`).
 */
export function useFieldErrors<F extends string, E extends HTMLElement = HTMLElement>(fields: readonly F[]) {
  const [errors, setErrors] = useState<FormErrors<F>>({ fields: {}, other: [] });
  const { ref, focusFirstInvalid } = useFocusFirstInvalid<E>();

  const show = useCallback(
    (next: FormErrors<F>) => {
      setErrors(next);
      if (Object.values(next.fields).some(Boolean)) focusFirstInvalid();
    },
    [focusFirstInvalid],
  );

  return {
    ref,
    errors,
    /** For the form's other checks that mark fields themselves (a starter too long). */
    focusFirstInvalid,
    /** Lays the API's answer over the fields; answers whether any field got a message. */
    showApiError: (error: unknown, fallback: string) => {
      const next = formErrors(error, fields, fallback);
      show(next);
      return Object.values(next.fields).some(Boolean);
    },
    /** The form's own findings before sending (a blank required field); answers whether there are any. */
    mark: (found: Partial<Record<F, string>>) => {
      show({ fields: found, other: [] });
      return Object.values(found).some(Boolean);
    },
    clear: (field: F) =>
      setErrors((current) =>
        current.fields[field] === undefined
          ? current
          : { ...current, fields: { ...current.fields, [field]: undefined } },
      ),
    reset: () => setErrors({ fields: {}, other: [] }),
  };
}
