export { createKnowledgeService, type KnowledgeService } from './service.ts';
export { createEmbedder, type Embedder } from './embeddings.ts';
export { knowledgeRoutes } from './routes.ts';
export { knowledgeUserData } from './user-data.ts';
export { knowledgeFilesIn } from './files-in.ts';
