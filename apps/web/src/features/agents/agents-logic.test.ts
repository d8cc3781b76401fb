import { describe, expect, it } from 'vitest';
import type { Agent, AgentTool } from './api/agents-api';
import {
  addTool,
  draftOf,
  draftToBody,
  duplicateBody,
  groupToolsByApp,
  isDirty,
  removeTool,
  starterErrorsFrom,
  temperatureError,
} from './agents-logic';
import { agentFixture } from '../../test/agent-fixture';

const tool = (id: number, app: string, name: string): AgentTool => ({
  id,
  display_name: name,
  name: name.toUpperCase(),
  description: `${name} description`,
  logo: '',
  app_name: app,
  service_id: 1,
  needs_reconnecting: false,
});

const agent: Agent = agentFixture({
  id: 3,
  name: 'Mail helper',
  description: 'Reads mail',
  guidelines: 'Be brief',
  tools: [tool(1, 'Gmail', 'Send'), tool(2, 'Search', 'Web search')],
});

describe('duplicate naming', () => {
  it("creates '{name} (Copy)' with the same description and tool ids and no guidelines", () => {
    expect(duplicateBody(agent)).toEqual({
      name: 'Mail helper (Copy)',
      description: 'Reads mail',
      guidelines: null,
      starters: [],
      tool_ids: [1, 2],
      duplicated_from: 3,
    });
  });
});

const NO_MODEL = { modelId: null, temperature: null, modelAvailable: true };

describe('agent form validation', () => {
  it('needs a non-blank name and description', () => {
    const empty = {
      guidelines: '',
      icon: null,
      color: null,
      starters: [],
      tools: [],
      modelId: null,
      temperature: '',
      saved: NO_MODEL,
      allowUnattendedWrites: false,
      apiWrites: 'approve' as const,
    };
    expect(draftToBody({ ...empty, name: '  ', description: 'x' })).toBeNull();
    expect(draftToBody({ ...empty, name: 'x', description: '\n ' })).toBeNull();
  });

  it('sends blank guidelines as null and keeps real ones', () => {
    expect(
      draftToBody({
        name: ' A ',
        description: 'B',
        guidelines: '   ',
        icon: '📬',
        color: 'blue',
        starters: [],
        tools: [tool(5, 'X', 'y')],
        modelId: null,
        temperature: '',
        saved: NO_MODEL,
        allowUnattendedWrites: true,
        apiWrites: 'refuse',
      }),
    ).toEqual({
      name: 'A',
      description: 'B',
      guidelines: null,
      icon: '📬',
      color: 'blue',
      starters: [],
      tool_ids: [5],
      allow_unattended_writes: true,
      api_writes: 'refuse',
    });
    expect(
      draftToBody({
        name: 'A',
        description: 'B',
        guidelines: 'Be kind',
        icon: null,
        color: null,
        starters: [],
        tools: [],
        modelId: null,
        temperature: '',
        saved: NO_MODEL,
        allowUnattendedWrites: false,
        apiWrites: 'approve',
      })?.guidelines,
    ).toBe('Be kind');
  });

  it('sends the model and temperature only when they change, and never a stale model left alone', () => {
    const draft = { ...draftOf(undefined), name: 'A', description: 'B' };
    expect(draftToBody(draft)).not.toHaveProperty('model_id');
    expect(draftToBody(draft)).not.toHaveProperty('temperature');
    expect(draftToBody({ ...draft, modelId: 'fast', temperature: ' 0.7 ' })).toMatchObject({
      model_id: 'fast',
      temperature: 0.7,
    });
    const stale = draftOf({ ...agent, model_id: 'gone', temperature: 1, model_available: false });
    expect(stale).toMatchObject({ modelId: 'gone', temperature: '1' });
    expect(draftToBody(stale)).not.toHaveProperty('model_id');
    expect(draftToBody({ ...stale, modelId: null, temperature: '' })).toMatchObject({
      model_id: null,
      temperature: null,
    });
    expect(isDirty(stale, { ...stale, temperature: '1.5' })).toBe(true);
  });

  it('accepts a blank temperature or one from 0 to 2', () => {
    for (const ok of ['', ' ', '0', '0.7', '2']) expect(temperatureError(ok)).toBeUndefined();
    for (const bad of ['2.1', '-0.1', 'hot']) expect(temperatureError(bad)).toMatch(/from 0 to 2/);
  });

  it('ignores a tool that is already selected and removes tools', () => {
    const tools = [tool(1, 'Gmail', 'Send')];
    expect(addTool(tools, tool(1, 'Gmail', 'Send'))).toBe(tools);
    expect(addTool(tools, tool(2, 'Gmail', 'Read')).map((t) => t.id)).toEqual([1, 2]);
    expect(removeTool(addTool(tools, tool(2, 'Gmail', 'Read')), 1).map((t) => t.id)).toEqual([2]);
  });

  it('groups tools by app name', () => {
    const groups = groupToolsByApp([
      tool(1, 'Gmail', 'Send'),
      tool(2, 'Calendar', 'Create'),
      tool(3, 'Gmail', 'Archive'),
    ]);
    expect(groups.map((g) => [g.app, g.tools.map((t) => t.display_name)])).toEqual([
      ['Calendar', ['Create']],
      ['Gmail', ['Archive', 'Send']],
    ]);
  });

  it('knows when the form has unsaved changes', () => {
    const initial = draftOf(agent);
    expect(isDirty(initial, { ...initial })).toBe(false);
    expect(isDirty(initial, { ...initial, name: 'Other' })).toBe(true);
    expect(isDirty(initial, { ...initial, tools: initial.tools.slice(1) })).toBe(true);
    expect(isDirty(initial, { ...initial, starters: ['Hi', '', '', ''] })).toBe(true);
    expect(isDirty(initial, { ...initial, allowUnattendedWrites: true })).toBe(true);
    expect(isDirty(initial, { ...initial, apiWrites: 'refuse' })).toBe(true);
    expect(draftOf(undefined)).toEqual({
      name: '',
      description: '',
      guidelines: '',
      icon: null,
      color: null,
      starters: ['', '', '', ''],
      tools: [],
      modelId: null,
      temperature: '',
      saved: NO_MODEL,
      allowUnattendedWrites: false,
      apiWrites: 'approve',
    });
    expect(draftOf({ ...agent, allow_unattended_writes: true }).allowUnattendedWrites).toBe(true);
    expect(draftOf({ ...agent, api_writes: 'refuse' }).apiWrites).toBe('refuse');
  });
});

describe('server errors on starters', () => {
  it('puts the n-th sent starter’s error under the n-th non-blank input (blank ones are not sent)', () => {
    const body = { detail: [{ loc: ['body', 'starters', 0], msg: 'must be at most 120 characters' }] };
    expect(starterErrorsFrom(body, ['', 'x'.repeat(130)])).toEqual({
      '1': 'Starter must be at most 120 characters',
    });
    expect(starterErrorsFrom({ detail: [{ loc: ['body', 'starters'], msg: 'is odd' }] }, [])).toEqual({
      all: 'Starter is odd',
    });
  });
});
