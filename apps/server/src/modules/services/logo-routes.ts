import { errorSchema, SERVICE_PUBLIC_PATHS } from '@cadre/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { logoFile } from '../tools/index.ts';
import { operations } from '../../http/openapi.ts';

const op = operations('public');

/** A year: the file's name is its content hash, so a changed logo is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built-in services' logos, which lists name by URL instead of inlining them in every row. */
export const logoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    SERVICE_PUBLIC_PATHS.logo,
    {
      config: { public: true },
      ...op('serviceLogo', "A built-in service's logo (SVG), cacheable forever", {
        params: z.object({ file: z.string().max(40) }),
        response: { 200: z.string().describe('image/svg+xml'), 404: errorSchema },
      }),
    },
    async (request, reply) => {
      const svg = logoFile(request.params.file);
      if (!svg) throw notFound('Logo not found');
      return (
        reply
          .type('image/svg+xml')
          .header('cache-control', IMMUTABLE)
          // An SVG opened on its own is a document: it may draw, never run anything.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(svg)
      );
    },
  );
};
