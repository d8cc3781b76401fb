import { z } from 'zod';
import type { Config } from '../../../../config.ts';
import { safeFetch } from '../../egress.ts';
import { freshTokens, type OAuth2ClientConfig } from '../../oauth2.ts';
import { codeForStatus, ToolError } from '../../provider.ts';
import { defineAction, initialsLogo, policyFor, type BuiltinContext, type BuiltinService } from './define.ts';

/** GitHub through the generic OAuth2 client (listed only when GITHUB_CLIENT_ID/SECRET are set). */

export function githubOAuthConfig(config: Config): OAuth2ClientConfig | undefined {
  const gh = config.tools.github;
  if (!gh) return undefined;
  return {
    clientId: gh.clientId,
    clientSecret: gh.clientSecret,
    authorizeUrl: gh.authorizeUrl,
    tokenUrl: gh.tokenUrl,
    scopes: ['repo'],
    tokenAuth: 'client_secret_post',
    policy: policyFor(config, gh.tokenUrl),
  };
}

/**
 * Revokes the user's grant to Cadre's OAuth app at GitHub, so no token of it works any more
 * (GitHub's `DELETE /applications/{client_id}/grant`, authenticated with the app's id and secret,
 * naming one of the grant's tokens; OAuth apps' tokens do not expire). A token GitHub no longer
 * knows (404: the user already revoked the app at GitHub) leaves nothing to revoke; any other
 * answer is an error, so the connection is kept and the user can try again.
 */
export async function revokeGithubGrant(config: Config, accessToken: string): Promise<void> {
  const gh = config.tools.github;
  if (!gh) return;
  const basic = Buffer.from(`${gh.clientId}:${gh.clientSecret}`).toString('base64');
  const res = await safeFetch(
    `${gh.apiUrl}/applications/${encodeURIComponent(gh.clientId)}/grant`,
    {
      method: 'DELETE',
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Basic ${basic}`,
        'content-type': 'application/json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'Cadre',
      },
      body: JSON.stringify({ access_token: accessToken }),
    },
    policyFor(config, gh.apiUrl),
  );
  if (res.status === 204 || res.status === 404) return;
  throw new ToolError(codeForStatus(res.status), `GitHub answered HTTP ${res.status} to the revocation`);
}

async function github<T>(
  ctx: BuiltinContext,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const cfg = githubOAuthConfig(ctx.config);
  const api = ctx.config.tools.github?.apiUrl;
  if (!cfg || !api) throw new ToolError('provider_error', 'GitHub is not configured on this server');
  const { tokens, refreshed } = await freshTokens(cfg, ctx.credentials);
  if (refreshed) ctx.updatedCredentials = tokens;
  const res = await safeFetch(
    `${api}${path}`,
    {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${tokens.access_token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'Cadre',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    },
    policyFor(ctx.config, api),
  );
  if (!res.ok) {
    const message = (() => {
      try {
        const m = res.json<{ message?: unknown }>().message;
        return typeof m === 'string' ? `: ${m.slice(0, 200)}` : '';
      } catch {
        return '';
      }
    })();
    throw new ToolError(codeForStatus(res.status), `GitHub answered HTTP ${res.status}${message}`);
  }
  return res.json<T>();
}

const repoParts = {
  owner: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/)
    .describe('Repository owner (user or organisation)'),
  repo: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/)
    .describe('Repository name'),
};

interface Issue {
  number: number;
  title: string;
  state: string;
  html_url: string;
  user?: { login?: string };
  labels?: { name?: string }[];
  comments?: number;
  created_at?: string;
  body?: string | null;
  pull_request?: unknown;
}
const issueOut = (i: Issue) => ({
  number: i.number,
  title: i.title,
  state: i.state,
  url: i.html_url,
  author: i.user?.login,
  labels: (i.labels ?? []).map((l) => l.name),
  comments: i.comments,
  created_at: i.created_at,
});

export const githubService: BuiltinService = {
  key: 'github',
  name: 'GitHub',
  description:
    'Your GitHub repositories and issues: list repositories you can access, list issues of a repository, and open new issues. Connects with your GitHub account (OAuth).',
  logo: initialsLogo('GH', '#24292F'),
  authScheme: 'OAUTH2',
  enabled: (config) => config.tools.github !== undefined,
  actions: [
    defineAction({
      name: 'list_repos',
      displayName: 'List repositories',
      description: 'Repositories the connected account can access, most recently updated first.',
      effect: 'read',
      input: z.object({
        per_page: z.number().int().min(1).max(100).default(30),
        visibility: z.enum(['all', 'public', 'private']).default('all'),
      }),
      run: async ({ per_page, visibility }, ctx) => {
        const repos = await github<
          {
            full_name: string;
            description: string | null;
            private: boolean;
            html_url: string;
            stargazers_count?: number;
            updated_at?: string;
          }[]
        >(ctx, `/user/repos?sort=updated&per_page=${per_page}&visibility=${visibility}`);
        return {
          repositories: repos.map((r) => ({
            full_name: r.full_name,
            description: r.description,
            private: r.private,
            url: r.html_url,
            stars: r.stargazers_count,
            updated_at: r.updated_at,
          })),
        };
      },
    }),
    defineAction({
      name: 'list_issues',
      displayName: 'List issues',
      description: 'Issues of a repository (pull requests left out).',
      effect: 'read',
      input: z.object({
        ...repoParts,
        state: z.enum(['open', 'closed', 'all']).default('open'),
        per_page: z.number().int().min(1).max(100).default(30),
      }),
      run: async ({ owner, repo, state, per_page }, ctx) => {
        const issues = await github<Issue[]>(
          ctx,
          `/repos/${owner}/${repo}/issues?state=${state}&per_page=${per_page}`,
        );
        return { issues: issues.filter((i) => !i.pull_request).map(issueOut) };
      },
    }),
    defineAction({
      name: 'create_issue',
      displayName: 'Create issue',
      description: 'Opens a new issue in a repository.',
      effect: 'write',
      input: z.object({
        ...repoParts,
        title: z.string().trim().min(1).max(256),
        body: z.string().max(65_000).default(''),
        labels: z.array(z.string().min(1).max(50)).max(20).optional(),
      }),
      run: async ({ owner, repo, title, body, labels }, ctx) =>
        issueOut(
          await github<Issue>(ctx, `/repos/${owner}/${repo}/issues`, {
            method: 'POST',
            body: { title, body, labels },
          }),
        ),
    }),
  ],
};
