import { chatTurnRequestSchema, formRules } from '@cadre/contract';

/** A message's rules as the chat service checks a turn's text: the composer and the edit box share them. */
export const MESSAGE_RULES = formRules(chatTurnRequestSchema).text;
