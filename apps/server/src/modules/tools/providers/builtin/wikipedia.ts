import { z } from 'zod';
import { callJson, defineAction, initialsLogo, policyFor, type BuiltinService } from './define.ts';

/** Wikipedia through its public APIs: MediaWiki search (`w/api.php`) and REST page summaries. */

const stripHtml = (text: string) =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
const headers = { 'api-user-agent': 'Cadre/1.0 (built-in Wikipedia tool)' };

export const wikipedia: BuiltinService = {
  key: 'wikipedia',
  name: 'Wikipedia',
  description:
    'Searches Wikipedia and reads the summary of an article: the lead paragraph, a short description and the link.',
  logo: initialsLogo('W', '#1A202C'),
  authScheme: 'NO_AUTH',
  actions: [
    defineAction({
      name: 'search',
      displayName: 'Search articles',
      description: 'Full-text search of English Wikipedia; returns article titles with a snippet.',
      effect: 'read',
      input: z.object({
        query: z.string().trim().min(1).max(300),
        limit: z.number().int().min(1).max(50).default(10),
      }),
      run: async ({ query, limit }, ctx) => {
        const base = ctx.config.tools.builtin.wikipediaUrl;
        const params = new URLSearchParams({
          action: 'query',
          list: 'search',
          srsearch: query,
          srlimit: String(limit),
          format: 'json',
          formatversion: '2',
        });
        const data = await callJson<{
          query?: {
            searchinfo?: { totalhits?: number };
            search?: { title: string; pageid: number; snippet?: string; wordcount?: number }[];
          };
        }>('Wikipedia', `${base}/w/api.php?${params}`, { headers }, policyFor(ctx.config, base));
        return {
          total: data.query?.searchinfo?.totalhits,
          results: (data.query?.search ?? []).map((r) => ({
            title: r.title,
            page_id: r.pageid,
            snippet: stripHtml(r.snippet ?? ''),
            url: `${base}/wiki/${encodeURIComponent(r.title.replace(/ /g, '_'))}`,
          })),
        };
      },
    }),
    defineAction({
      name: 'page_summary',
      displayName: 'Article summary',
      description: 'The summary of a Wikipedia article by title: its lead text, short description and link.',
      effect: 'read',
      input: z.object({
        title: z.string().trim().min(1).max(300).describe('The article title, e.g. "Ada Lovelace"'),
      }),
      run: async ({ title }, ctx) => {
        const base = ctx.config.tools.builtin.wikipediaUrl;
        const data = await callJson<{
          title: string;
          description?: string;
          extract?: string;
          type?: string;
          content_urls?: { desktop?: { page?: string } };
        }>(
          'Wikipedia',
          `${base}/api/rest_v1/page/summary/${encodeURIComponent(title.replace(/ /g, '_'))}`,
          { headers },
          policyFor(ctx.config, base),
        );
        return {
          title: data.title,
          description: data.description,
          summary: data.extract,
          type: data.type,
          url: data.content_urls?.desktop?.page,
        };
      },
    }),
  ],
};
