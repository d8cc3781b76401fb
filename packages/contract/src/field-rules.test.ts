import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentCreateSchema, AGENT_LIMITS, chatFeedbackSchema, formRules, fieldRules } from './index.ts';

describe('fieldRules', () => {
  it('reads a required text field: its length and that it may not be blank', () => {
    expect(formRules(agentCreateSchema).name).toEqual({ required: true, maxLength: AGENT_LIMITS.name });
  });

  it('looks through nullable, optional, defaults and transforms, which make a field optional', () => {
    const rules = formRules(agentCreateSchema);
    expect(rules.guidelines).toEqual({ required: false, maxLength: AGENT_LIMITS.guidelines });
    expect(rules.temperature).toEqual({ required: false, min: 0, max: 2 });
    expect(fieldRules(z.string().max(5).default(''))).toEqual({ required: false, maxLength: 5 });
  });

  it('reads the chat frame’s fields too', () => {
    expect(formRules(chatFeedbackSchema).comment).toMatchObject({ required: false, maxLength: 1000 });
  });

  it('leaves out bounds a schema does not set', () => {
    expect(fieldRules(z.number())).toEqual({ required: true });
    expect(fieldRules(z.boolean())).toEqual({ required: false });
  });
});
