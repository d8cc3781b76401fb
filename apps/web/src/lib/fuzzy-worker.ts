// The search worker (see searchInWorker in lib/fuzzy.ts): long lists are searched here, off the
// page's thread, so that typing in a search box never waits for the search.
import { answerFuzzyRequests, type MessagePeer } from './fuzzy-match';

// In a dedicated worker `self` is the worker's global scope; the app's TypeScript lib types it as Window.
answerFuzzyRequests(self as unknown as MessagePeer);
