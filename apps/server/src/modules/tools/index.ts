/** The tools module's public face. */
export type { ToolsService } from './service.ts';
