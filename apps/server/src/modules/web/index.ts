export { registerWebApp } from './routes.ts';
