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
} from './agents-logic';
import {
  ACTION_ADDED_DURATION,
  AGENT_SEARCH_KEYS,
  AGENT_TEXT,
  AGENT_TOAST_DURATION,
  AGENT_TOASTS,
} from './constants';

const tool = (id: number, app: string, name: string): AgentTool => ({
  id,
  display_name: name,
  name: name.toUpperCase(),
  description: `${name} description`,
  logo: '',
  app_name: app,
});

const agent: Agent = {
  id: 3,
  name: 'Mail helper',
  description: 'Reads mail',
  guidelines: 'Be brief',
  tools: [tool(1, 'Gmail', 'Send'), tool(2, 'Search', 'Web search')],
};

describe('duplicate naming', () => {
  it("creates '{name} (Copy)' with the same description and tool ids and no guidelines", () => {
    expect(duplicateBody(agent)).toEqual({
      name: 'Mail helper (Copy)',
      description: 'Reads mail',
      guidelines: null,
      tool_ids: [1, 2],
      duplicated_from: 3,
    });
  });
});

describe('agent form validation', () => {
  it('needs a non-blank name and description', () => {
    expect(draftToBody({ name: '  ', description: 'x', guidelines: '', tools: [] })).toBeNull();
    expect(draftToBody({ name: 'x', description: '\n ', guidelines: '', tools: [] })).toBeNull();
  });

  it('sends blank guidelines as null and keeps real ones', () => {
    expect(
      draftToBody({ name: ' A ', description: 'B', guidelines: '   ', tools: [tool(5, 'X', 'y')] }),
    ).toEqual({
      name: 'A',
      description: 'B',
      guidelines: null,
      tool_ids: [5],
    });
    expect(draftToBody({ name: 'A', description: 'B', guidelines: 'Be kind', tools: [] })?.guidelines).toBe(
      'Be kind',
    );
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
    expect(draftOf(undefined)).toEqual({ name: '', description: '', guidelines: '', tools: [] });
  });
});

describe('agent texts and toasts (spec sections 2, 8, 9)', () => {
  it('searches name and description', () => {
    expect(AGENT_SEARCH_KEYS).toEqual(['name', 'description']);
  });

  it('has every toast text word for word, at 3000 ms, and Action added at 2000 ms', () => {
    expect(AGENT_TOAST_DURATION).toBe(3000);
    expect(ACTION_ADDED_DURATION).toBe(2000);
    expect(AGENT_TOASTS.created).toEqual({
      title: 'Agent created successfully.',
      type: 'success',
      duration: 3000,
    });
    expect(AGENT_TOASTS.createFailed).toEqual({
      title: 'Failed to create agent.',
      type: 'error',
      duration: 3000,
    });
    expect(AGENT_TOASTS.deleted).toEqual({
      title: 'Agent deleted successfully.',
      type: 'success',
      duration: 3000,
    });
    expect(AGENT_TOASTS.deleteFailed).toEqual({
      title: 'Failed to delete agent.',
      type: 'error',
      duration: 3000,
    });
    expect(AGENT_TOASTS.saved('Create')).toEqual({ title: 'Agent Created', type: 'success', duration: 3000 });
    expect(AGENT_TOASTS.saved('Update')).toEqual({ title: 'Agent Updated', type: 'success', duration: 3000 });
    expect(AGENT_TOASTS.saveFailed('Create')).toEqual({
      title: 'Create Failed',
      description: 'Failed to Create agent.',
      type: 'error',
      duration: 3000,
    });
    expect(AGENT_TOASTS.saveFailed('Update')).toEqual({
      title: 'Update Failed',
      description: 'Failed to Update agent.',
      type: 'error',
      duration: 3000,
    });
    expect(AGENT_TOASTS.required).toEqual({
      title: 'Name/Description Required',
      type: 'error',
      duration: 3000,
    });
    expect(AGENT_TOASTS.actionAdded('Send Email')).toEqual({
      title: 'Action added',
      description: 'Send Email added to agent',
      type: 'info',
      duration: 2000,
    });
  });

  it('has the screen texts', () => {
    expect(AGENT_TEXT.search).toBe('Search agents');
    expect(AGENT_TEXT.loading).toBe('Loading agents...');
    expect(AGENT_TEXT.loadError).toBe('Error loading agents.');
    expect(AGENT_TEXT.empty).toBe('No agents found.');
    expect(AGENT_TEXT.createFirst).toBe('Create an agent!');
    expect(AGENT_TEXT.createNew).toBe('Create New Agent');
    expect(AGENT_TEXT.toolsButton(4)).toBe('4 Tools');
    expect(AGENT_TEXT.guidelinesTooltip).toBe(
      "Optionally provide guidelines for influencing the agent's behavior. Explain as precisely as possible.",
    );
  });
});
