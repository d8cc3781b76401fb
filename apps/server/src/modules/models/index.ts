/** The models module's public face: the offered language models as the API lists them. */
export { modelsRoutes } from './routes.ts';
