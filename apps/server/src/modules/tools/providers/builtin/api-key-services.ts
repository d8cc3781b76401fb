import { z } from 'zod';
import {
  callJson,
  defineAction,
  initialsLogo,
  policyFor,
  requireApiKey,
  type BuiltinService,
} from './define.ts';

/** Google APIs answer 400 API_KEY_INVALID (keyInvalid in YouTube's words) for a key that does not exist. */
const googleRefused = (status: number, body: string) =>
  status === 400 && /API_KEY_INVALID|keyInvalid/.test(body);

/**
 * Services that need the user's own API key, matching the spec's example agents: web search
 * (Brave Search API), YouTube search (YouTube Data API v3), place search (Google Places API
 * (New)) and weather (OpenWeatherMap). Keys travel only in the header or parameter each API
 * documents, only to that API's host.
 */

export const webSearch: BuiltinService = {
  key: 'web_search',
  name: 'Web Search',
  description:
    'Searches the web with the Brave Search API and returns titles, links and snippets. Needs a Brave Search API key (api-dashboard.search.brave.com).',
  logo: initialsLogo('S', '#FB542B'),
  authScheme: 'API_KEY',
  // Brave has no free endpoint: one one-result search.
  keyCheck: (key, config) => ({
    provider: 'Brave Search',
    base: config.tools.builtin.braveSearchUrl,
    path: '/res/v1/web/search?q=cadre&count=1',
    init: { headers: { 'x-subscription-token': key } },
    refusedAlso: (status, body) => status === 422 && body.includes('SUBSCRIPTION_TOKEN_INVALID'),
  }),
  actions: [
    defineAction({
      name: 'web_search',
      displayName: 'Search the web',
      description: 'Searches the web; returns up to count results with title, URL and description.',
      effect: 'read',
      input: z.object({
        query: z.string().trim().min(1).max(400),
        count: z.number().int().min(1).max(20).default(10),
        country: z
          .string()
          .length(2)
          .optional()
          .describe('Two-letter country code to focus results, e.g. "us"'),
      }),
      run: async ({ query, count, country }, ctx) => {
        const key = requireApiKey(ctx, 'Web Search');
        const base = ctx.config.tools.builtin.braveSearchUrl;
        const params = new URLSearchParams({ q: query, count: String(count) });
        if (country) params.set('country', country.toLowerCase());
        const data = await callJson<{
          web?: { results?: { title: string; url: string; description?: string; age?: string }[] };
        }>(
          'Brave Search',
          `${base}/res/v1/web/search?${params}`,
          { headers: { 'x-subscription-token': key } },
          policyFor(ctx.config, base),
        );
        return {
          results: (data.web?.results ?? []).map((r) => ({
            title: r.title,
            url: r.url,
            description: r.description,
            age: r.age,
          })),
        };
      },
    }),
  ],
};

export const youtube: BuiltinService = {
  key: 'youtube',
  name: 'YouTube Search',
  description:
    'Finds YouTube videos with the YouTube Data API v3: titles, channels, publish dates and links. Needs a Google API key with the YouTube Data API enabled.',
  logo: initialsLogo('▶', '#FF0000'),
  authScheme: 'API_KEY',
  // i18nLanguages.list costs 1 quota unit (a search costs 100).
  keyCheck: (key, config) => ({
    provider: 'YouTube',
    base: config.tools.builtin.youtubeUrl,
    path: `/youtube/v3/i18nLanguages?${new URLSearchParams({ part: 'snippet', hl: 'en_US', key })}`,
    refusedAlso: googleRefused,
  }),
  actions: [
    defineAction({
      name: 'search_videos',
      displayName: 'Search videos',
      description: 'Searches YouTube videos by keywords; returns title, channel, description, date and URL.',
      effect: 'read',
      input: z.object({
        query: z.string().trim().min(1).max(300),
        max_results: z.number().int().min(1).max(50).default(10),
        order: z.enum(['relevance', 'date', 'viewCount', 'rating']).default('relevance'),
      }),
      run: async ({ query, max_results, order }, ctx) => {
        const key = requireApiKey(ctx, 'YouTube Search');
        const base = ctx.config.tools.builtin.youtubeUrl;
        const params = new URLSearchParams({
          part: 'snippet',
          q: query,
          type: 'video',
          maxResults: String(max_results),
          order,
          key,
        });
        const data = await callJson<{
          items?: {
            id?: { videoId?: string };
            snippet?: { title?: string; description?: string; channelTitle?: string; publishedAt?: string };
          }[];
        }>('YouTube', `${base}/youtube/v3/search?${params}`, {}, policyFor(ctx.config, base));
        return {
          videos: (data.items ?? [])
            .filter((i) => i.id?.videoId)
            .map((i) => ({
              video_id: i.id!.videoId,
              title: i.snippet?.title,
              channel: i.snippet?.channelTitle,
              description: i.snippet?.description,
              published_at: i.snippet?.publishedAt,
              url: `https://www.youtube.com/watch?v=${i.id!.videoId}`,
            })),
        };
      },
    }),
  ],
};

const PLACE_FIELDS = [
  'places.id',
  'places.displayName',
  'places.formattedAddress',
  'places.rating',
  'places.userRatingCount',
  'places.googleMapsUri',
  'places.websiteUri',
  'places.priceLevel',
  'places.types',
].join(',');

export const places: BuiltinService = {
  key: 'places',
  name: 'Place Search',
  description:
    'Finds places (restaurants, shops, sights, addresses) with the Google Places API (New) text search: name, address, rating and map link. Needs a Google Maps Platform API key.',
  logo: initialsLogo('P', '#34A853'),
  authScheme: 'API_KEY',
  // Place Details asking for the id only (the Essentials IDs Only SKU), of Google's own example place.
  keyCheck: (key, config) => ({
    provider: 'Google Places',
    base: config.tools.builtin.placesUrl,
    path: '/v1/places/ChIJj61dQgK6j4AR4GeTYWZsKWw',
    init: { headers: { 'x-goog-api-key': key, 'x-goog-fieldmask': 'id' } },
    refusedAlso: googleRefused,
  }),
  actions: [
    defineAction({
      name: 'search_places',
      displayName: 'Search places',
      description:
        'Text search for places, e.g. "vegetarian restaurants in Lyon"; returns name, address, rating and Maps link.',
      effect: 'read',
      input: z.object({
        query: z.string().trim().min(1).max(300),
        max_results: z.number().int().min(1).max(20).default(10),
      }),
      run: async ({ query, max_results }, ctx) => {
        const key = requireApiKey(ctx, 'Place Search');
        const base = ctx.config.tools.builtin.placesUrl;
        const data = await callJson<{
          places?: {
            id?: string;
            displayName?: { text?: string };
            formattedAddress?: string;
            rating?: number;
            userRatingCount?: number;
            googleMapsUri?: string;
            websiteUri?: string;
            priceLevel?: string;
            types?: string[];
          }[];
        }>(
          'Google Places',
          `${base}/v1/places:searchText`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-goog-api-key': key,
              'x-goog-fieldmask': PLACE_FIELDS,
            },
            body: JSON.stringify({ textQuery: query, maxResultCount: max_results }),
          },
          policyFor(ctx.config, base),
        );
        return {
          places: (data.places ?? []).map((p) => ({
            id: p.id,
            name: p.displayName?.text,
            address: p.formattedAddress,
            rating: p.rating,
            ratings: p.userRatingCount,
            price_level: p.priceLevel,
            types: p.types,
            maps_url: p.googleMapsUri,
            website: p.websiteUri,
          })),
        };
      },
    }),
  ],
};

export const weather: BuiltinService = {
  key: 'weather',
  name: 'Weather',
  description:
    'Current weather for a city from OpenWeatherMap: conditions, temperature, feels-like, humidity and wind. Needs an OpenWeatherMap API key.',
  logo: initialsLogo('☀', '#3182CE'),
  authScheme: 'API_KEY',
  keyCheck: (key, config) => ({
    provider: 'OpenWeather',
    base: config.tools.builtin.weatherUrl,
    path: `/data/2.5/weather?${new URLSearchParams({ lat: '0', lon: '0', appid: key })}`,
  }),
  actions: [
    defineAction({
      name: 'current_weather',
      displayName: 'Current weather',
      description: 'The current weather in a city, e.g. "Paris" or "Paris,FR". Metric units by default.',
      effect: 'read',
      input: z.object({
        city: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .describe('City name, optionally with a country code: "Berlin,DE"'),
        units: z.enum(['metric', 'imperial']).default('metric'),
      }),
      run: async ({ city, units }, ctx) => {
        const key = requireApiKey(ctx, 'Weather');
        const base = ctx.config.tools.builtin.weatherUrl;
        const params = new URLSearchParams({ q: city, appid: key, units });
        const data = await callJson<{
          name?: string;
          sys?: { country?: string };
          weather?: { main?: string; description?: string }[];
          main?: {
            temp?: number;
            feels_like?: number;
            humidity?: number;
            pressure?: number;
            temp_min?: number;
            temp_max?: number;
          };
          wind?: { speed?: number; deg?: number };
          dt?: number;
        }>('OpenWeatherMap', `${base}/data/2.5/weather?${params}`, {}, policyFor(ctx.config, base));
        return {
          city: data.name,
          country: data.sys?.country,
          conditions: data.weather?.[0]?.description ?? data.weather?.[0]?.main,
          temperature: data.main?.temp,
          feels_like: data.main?.feels_like,
          min: data.main?.temp_min,
          max: data.main?.temp_max,
          humidity_percent: data.main?.humidity,
          pressure_hpa: data.main?.pressure,
          wind_speed: data.wind?.speed,
          units: units === 'metric' ? { temperature: '°C', wind: 'm/s' } : { temperature: '°F', wind: 'mph' },
          observed_at: data.dt ? new Date(data.dt * 1000).toISOString() : undefined,
        };
      },
    }),
  ],
};
