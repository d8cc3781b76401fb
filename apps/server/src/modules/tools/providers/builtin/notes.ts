import { z } from 'zod';
import { ToolError } from '../../provider.ts';
import { defineAction, initialsLogo, type BuiltinService } from './define.ts';
import * as store from './store.ts';

/** Personal notes kept in Cadre's database; each user sees only their own. */

const noteOut = (n: { id: number; title: string; body: string; created_at: string; updated_at: string }) => ({
  id: n.id,
  title: n.title,
  body: n.body,
  created_at: n.created_at,
  updated_at: n.updated_at,
});
const noteId = z.number().int().positive().describe('The note id, from list_notes or search_notes');
const limit = z.number().int().min(1).max(100).default(20).describe('At most this many notes (1-100)');

export const notes: BuiltinService = {
  key: 'notes',
  name: 'Notes',
  description:
    'A private notebook kept in Cadre: agents can write down, list, search, edit and delete your notes. Only you (and your agents) can see them.',
  logo: initialsLogo('N', '#D69E2E'),
  authScheme: 'NO_AUTH',
  actions: [
    defineAction({
      name: 'create_note',
      displayName: 'Create note',
      description: 'Saves a new note with a title and a body. Returns the note with its id.',
      effect: 'write',
      input: z.object({
        title: z.string().trim().min(1).max(200).describe('A short title'),
        body: z.string().max(20_000).default('').describe('The text of the note'),
      }),
      run: async ({ title, body }, ctx) => noteOut(await store.createNote(ctx.db, ctx.userId, title, body)),
    }),
    defineAction({
      name: 'list_notes',
      displayName: 'List notes',
      description: 'Lists your notes, most recently changed first.',
      effect: 'read',
      input: z.object({ limit }),
      run: async ({ limit }, ctx) => ({
        notes: (await store.listNotes(ctx.db, ctx.userId, limit)).map(noteOut),
      }),
    }),
    defineAction({
      name: 'search_notes',
      displayName: 'Search notes',
      description: 'Finds notes whose title or body contains the text (case-insensitive).',
      effect: 'read',
      input: z.object({ query: z.string().trim().min(1).max(200).describe('Text to look for'), limit }),
      run: async ({ query, limit }, ctx) => ({
        notes: (await store.searchNotes(ctx.db, ctx.userId, query, limit)).map(noteOut),
      }),
    }),
    defineAction({
      name: 'get_note',
      displayName: 'Read note',
      description: 'Reads one note by id.',
      effect: 'read',
      input: z.object({ id: noteId }),
      run: async ({ id }, ctx) => noteOut(await store.ownNotes.get(ctx.db, ctx.userId, id)),
    }),
    defineAction({
      name: 'update_note',
      displayName: 'Update note',
      description: 'Changes the title and/or body of a note. Fields left out stay as they are.',
      effect: 'write',
      input: z.object({
        id: noteId,
        title: z.string().trim().min(1).max(200).optional(),
        body: z.string().max(20_000).optional(),
      }),
      run: async ({ id, title, body }, ctx) => {
        if (title === undefined && body === undefined) {
          throw new ToolError('invalid_input', 'Give a new title or body');
        }
        return noteOut(await store.ownNotes.update(ctx.db, ctx.userId, id, { title, body }));
      },
    }),
    store.ownNotes.deleteAction({
      name: 'delete_note',
      displayName: 'Delete note',
      description: 'Deletes a note for good.',
      id: noteId,
    }),
  ],
};
