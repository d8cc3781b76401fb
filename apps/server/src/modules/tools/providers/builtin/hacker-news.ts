import { z } from 'zod';
import {
  callJson,
  defineAction,
  initialsLogo,
  policyFor,
  type BuiltinContext,
  type BuiltinService,
} from './define.ts';

/**
 * Hacker News through its public APIs: the official Firebase API (`/v0/topstories.json`,
 * `/v0/item/{id}.json`) and Algolia's search API (`/api/v1/search`).
 */

interface HnItem {
  id: number;
  type?: string;
  by?: string;
  time?: number;
  title?: string;
  url?: string;
  text?: string;
  score?: number;
  descendants?: number;
  kids?: number[];
  deleted?: boolean;
  dead?: boolean;
}

const itemOut = (item: HnItem) => ({
  id: item.id,
  type: item.type,
  title: item.title,
  url: item.url,
  text: item.text,
  by: item.by,
  score: item.score,
  comments: item.descendants,
  time: item.time ? new Date(item.time * 1000).toISOString() : undefined,
  hn_url: `https://news.ycombinator.com/item?id=${item.id}`,
});

async function getItem(ctx: BuiltinContext, id: number): Promise<HnItem | null> {
  const base = ctx.config.tools.builtin.hackerNewsUrl;
  return callJson<HnItem | null>(
    'Hacker News',
    `${base}/v0/item/${id}.json`,
    {},
    policyFor(ctx.config, base),
  );
}

async function storyList(
  ctx: BuiltinContext,
  list: 'topstories' | 'newstories' | 'beststories',
  limit: number,
) {
  const base = ctx.config.tools.builtin.hackerNewsUrl;
  const ids = await callJson<number[]>(
    'Hacker News',
    `${base}/v0/${list}.json`,
    {},
    policyFor(ctx.config, base),
  );
  const items = await Promise.all(
    (Array.isArray(ids) ? ids : []).slice(0, limit).map((id) => getItem(ctx, id)),
  );
  return { stories: items.filter((i): i is HnItem => !!i && !i.deleted && !i.dead).map(itemOut) };
}

const limit = z.number().int().min(1).max(30).default(10).describe('How many stories (1-30)');

/** The three story lists of the official API, one action each. */
const STORY_LISTS = [
  {
    name: 'top_stories',
    displayName: 'Top stories',
    description:
      'The current top stories on the Hacker News front page, with title, link, score and comment count.',
    list: 'topstories',
  },
  {
    name: 'new_stories',
    displayName: 'New stories',
    description: 'The newest stories submitted to Hacker News.',
    list: 'newstories',
  },
  {
    name: 'best_stories',
    displayName: 'Best stories',
    description: 'The best-rated recent stories on Hacker News.',
    list: 'beststories',
  },
] as const;

export const hackerNews: BuiltinService = {
  key: 'hacker_news',
  name: 'Hacker News',
  description:
    "Reads Hacker News: today's top, newest and best stories, any story or comment by id, and full-text search over stories and comments.",
  logo: initialsLogo('Y', '#FF6600'),
  authScheme: 'NO_AUTH',
  actions: [
    ...STORY_LISTS.map(({ name, displayName, description, list }) =>
      defineAction({
        name,
        displayName,
        description,
        effect: 'read',
        input: z.object({ limit }),
        run: async ({ limit }, ctx) => storyList(ctx, list, limit),
      }),
    ),
    defineAction({
      name: 'get_item',
      displayName: 'Get story or comment',
      description: 'One Hacker News item (story, comment, job, poll) by its numeric id.',
      effect: 'read',
      input: z.object({ id: z.number().int().positive() }),
      run: async ({ id }, ctx) => {
        const item = await getItem(ctx, id);
        if (!item) return { found: false, id };
        return { found: true, item: itemOut(item), comment_ids: (item.kids ?? []).slice(0, 50) };
      },
    }),
    defineAction({
      name: 'search',
      displayName: 'Search',
      description: 'Full-text search of Hacker News stories (or comments), most relevant first.',
      effect: 'read',
      input: z.object({
        query: z.string().trim().min(1).max(300),
        kind: z.enum(['story', 'comment']).default('story'),
        limit: z.number().int().min(1).max(50).default(10),
      }),
      run: async ({ query, kind, limit }, ctx) => {
        const base = ctx.config.tools.builtin.hackerNewsSearchUrl;
        const params = new URLSearchParams({ query, tags: kind, hitsPerPage: String(limit) });
        const data = await callJson<{
          hits?: {
            objectID: string;
            title?: string;
            url?: string;
            author?: string;
            points?: number;
            num_comments?: number;
            created_at?: string;
            comment_text?: string;
            story_title?: string;
          }[];
          nbHits?: number;
        }>('Hacker News search', `${base}/api/v1/search?${params}`, {}, policyFor(ctx.config, base));
        return {
          total: data.nbHits,
          results: (data.hits ?? []).map((h) => ({
            id: Number(h.objectID),
            title: h.title ?? h.story_title,
            url: h.url,
            author: h.author,
            points: h.points,
            comments: h.num_comments,
            created_at: h.created_at,
            text: h.comment_text,
            hn_url: `https://news.ycombinator.com/item?id=${h.objectID}`,
          })),
        };
      },
    }),
  ],
};
