export { createKnowledgeService, type KnowledgeService } from './service.ts';
export type { KnowledgeHit } from './repository.ts';
export { createEmbedder, type Embedder } from './embeddings.ts';
export { createS3Store } from './object-store.ts';
export { knowledgeRoutes } from './routes.ts';
export { knowledgeUserData } from './user-data.ts';
export { knowledgeHistory } from './history.ts';
export { agentArchives } from './archives.ts';
