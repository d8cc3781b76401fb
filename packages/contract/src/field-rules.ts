import type { z } from 'zod';

/**
 * What a form's input takes, read from the schema the server validates the field with, so the
 * browser and the server agree. The names are the input's attributes, so the rules spread on it;
 * `required` when the schema neither lets the field out nor lets it be blank.
 */
export interface FieldRules {
  required: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
}

type Inspected = z.core.$ZodType & {
  minLength?: number | null;
  maxLength?: number | null;
  minValue?: number | null;
  maxValue?: number | null;
};

/** The rules of one field's schema, looking through optional, nullable, default and transforms. */
export function fieldRules(schema: z.core.$ZodType): FieldRules {
  let inner = schema as Inspected;
  let optional = false;
  for (;;) {
    const def = inner._zod.def as z.core.$ZodTypeDef & { innerType?: Inspected; in?: Inspected };
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
      optional = true;
      inner = def.innerType!;
    } else if (def.type === 'pipe') {
      inner = def.in!;
    } else break;
  }
  const rules: FieldRules = { required: false };
  if (inner._zod.def.type === 'string') {
    if (inner.maxLength != null) rules.maxLength = inner.maxLength;
    rules.required = !optional && (inner.minLength ?? 0) > 0;
  } else if (inner._zod.def.type === 'number') {
    if (inner.minValue != null && Number.isFinite(inner.minValue)) rules.min = inner.minValue;
    if (inner.maxValue != null && Number.isFinite(inner.maxValue)) rules.max = inner.maxValue;
    rules.required = !optional;
  }
  return rules;
}

/** The rules of every field of an object schema, by field name. */
export function formRules<Shape extends z.core.$ZodShape>(schema: {
  shape: Shape;
}): { [K in keyof Shape]: FieldRules } {
  return Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, fieldRules(field)]),
  ) as { [K in keyof Shape]: FieldRules };
}
