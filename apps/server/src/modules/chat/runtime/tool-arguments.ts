import type { Ajv, ValidateFunction } from 'ajv';
import type { JSONSchema7 } from '@ai-sdk/provider';

/**
 * Checks a tool call's arguments against the tool's JSON Schema when the model makes the call, so
 * a call with wrong arguments goes back to the model as a tool error and never becomes an approval
 * card whose Approve would then fail (or quietly drop what the tool does not take). Fields the
 * schema does not name are refused unless the schema allows them.
 */
let ajv: Promise<Ajv> | undefined;
/** Ajv (and its compiler) is loaded with the first tool call, not at every start. */
const loadAjv = () =>
  (ajv ??= import('ajv').then(
    ({ Ajv }) => new Ajv({ allErrors: true, strict: false, validateFormats: false }),
  ));

/** Compiled validators by schema text: the same tools are offered turn after turn. */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 1_000;

/** Starts the message of a refused check; the SDK passes it on inside its own error's text. */
export const INVALID_ARGUMENTS = 'Invalid arguments';

async function validatorFor(schema: JSONSchema7): Promise<ValidateFunction> {
  const strict: JSONSchema7 = { additionalProperties: false, ...schema };
  const key = JSON.stringify(strict);
  let validate = compiled.get(key);
  if (!validate) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    validate = (await loadAjv()).compile(strict);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * The `validate` option of the SDK's `jsonSchema()` for one tool's input schema. The schema is
 * compiled when the model first calls the tool, not for every tool offered.
 */
export function argumentsValidator(schema: JSONSchema7) {
  return async (value: unknown) => {
    let validate: ValidateFunction;
    try {
      validate = await validatorFor(schema);
    } catch {
      // A schema our validator cannot compile (a provider's dialect): the provider checks on its side.
      return { success: true as const, value: value as Record<string, unknown> };
    }
    if (validate(value)) return { success: true as const, value: value as Record<string, unknown> };
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => {
      const field = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
      if (e.keyword === 'additionalProperties')
        return `unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      if (e.keyword === 'required')
        return `missing field "${(e.params as { missingProperty: string }).missingProperty}"`;
      return `${field || 'arguments'} ${e.message ?? 'is invalid'}`;
    });
    return { success: false as const, error: new Error(`${INVALID_ARGUMENTS}: ${problems.join('; ')}`) };
  };
}
