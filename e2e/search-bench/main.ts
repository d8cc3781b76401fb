// The page `npm run bench:web` times the tool search in: Vite builds it from the web app's own
// lib/fuzzy.ts, as the app's build does, and Chromium runs it.
import { createFuzzySearch, searchInWorker, WORKER_MIN_ITEMS } from '../../apps/web/src/lib/fuzzy.ts';

interface BenchTool {
  id: number;
  display_name: string;
  name: string;
  description: string;
}

/** `count` tools named like real ones: ten apps, ten verbs, ten nouns, each name unique. */
function benchTools(count: number): BenchTool[] {
  const apps = [
    'Gmail',
    'Calendar',
    'Slack',
    'GitHub',
    'Notion',
    'Drive',
    'Jira',
    'Hacker News',
    'YouTube',
    'Maps',
  ];
  const verbs = ['Send', 'List', 'Create', 'Update', 'Delete', 'Search', 'Get', 'Move', 'Archive', 'Share'];
  const nouns = ['message', 'event', 'issue', 'page', 'file', 'comment', 'video', 'place', 'label', 'thread'];
  return Array.from({ length: count }, (_, i) => {
    const app = apps[i % apps.length]!;
    const verb = verbs[Math.floor(i / 10) % verbs.length]!;
    const noun = nouns[Math.floor(i / 100) % nouns.length]!;
    return {
      id: i,
      display_name: `${verb} ${noun} ${i}`,
      name: `${app.toUpperCase().replace(/ /g, '_')}_${verb.toUpperCase()}_${noun.toUpperCase()}_${i}`,
      description: `${verb} a ${noun} in ${app}. Variant ${i} of the tool.`,
    };
  });
}

/** What a person types, typos included, one prefix per keystroke. */
const TYPED = ['send message', 'calender event', 'github isue', 'search video'];
const keystrokes = TYPED.flatMap((word) => Array.from(word, (_, i) => word.slice(0, i + 1)));

/** The key sets the screens search tools by (the tools page, the agent editor's tools dialog). */
const KEY_SETS = [['name', 'description'], ['display_name']] as const;

/** A person types a key about every 100 ms. */
const KEYSTROKE_INTERVAL_MS = 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The search worker the screens start, with the page-side time of each message counted: posting a
 * query, and handling an answer (turning positions into the list's items, as the screens get them).
 */
function timedWorker(onHandled: (ms: number, query: string) => void) {
  const worker = new Worker(new URL('../../apps/web/src/lib/fuzzy-worker.ts', import.meta.url), {
    type: 'module',
  });
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => worker.postMessage(message, transfer ?? []),
    set onmessage(handler: ((event: MessageEvent) => void) | null) {
      worker.onmessage = (event) => {
        const start = performance.now();
        handler?.(event);
        onHandled(performance.now() - start, (event.data as { query: string }).query);
      };
    },
    get onmessage() {
      return null;
    },
    terminate: () => worker.terminate(),
  };
}

const searchBench = {
  keystrokes: keystrokes.length * KEY_SETS.length,
  /** The longest list the screens search on the page's thread; from WORKER_MIN_ITEMS on, a worker. */
  largestInPlace: WORKER_MIN_ITEMS - 1,

  /** Milliseconds per keystroke of the search run on the page's own thread. */
  sync(count: number): number[] {
    const tools = benchTools(count);
    const timings: number[] = [];
    for (const keys of KEY_SETS) {
      const search = createFuzzySearch(tools, keys);
      for (const query of keystrokes) {
        const start = performance.now();
        search(query);
        timings.push(performance.now() - start);
      }
    }
    return timings;
  },

  /**
   * Typing into a search of `count` tools run in the worker, one keystroke every 100 ms: the page's
   * own time per keystroke (posting the query, then handling its answer), and how long after the
   * keystroke the answer arrived (a query overtaken by the next keystroke is not answered).
   */
  async worker(count: number) {
    const tools = benchTools(count);
    const pageTime: number[] = [];
    const answerTime: number[] = [];
    const indexTime: number[] = [];
    for (const keys of KEY_SETS) {
      // Per keystroke: when its query was posted and the page's time for it; a query typed twice
      // ('s' of 'send' and of 'search') is answered for its latest keystroke.
      const sentAt: number[] = [];
      const ownTime: number[] = [];
      const latest = new Map<string, number>();
      let answered: (query: string) => void = () => {};
      const started = performance.now();
      const search = searchInWorker(tools, keys, (query) => answered(query), {
        startWorker: () =>
          timedWorker((ms, query) => {
            const keystroke = latest.get(query);
            if (keystroke !== undefined) ownTime[keystroke]! += ms;
          }),
      });
      // The index is built before anyone types: an empty query waits for it.
      await new Promise<void>((resolve) => {
        answered = () => resolve();
        search.search('');
      });
      indexTime.push(performance.now() - started);
      answered = (query) => answerTime.push(performance.now() - sentAt[latest.get(query)!]!);
      for (const [keystroke, query] of keystrokes.entries()) {
        latest.set(query, keystroke);
        const start = performance.now();
        sentAt[keystroke] = start;
        search.search(query);
        ownTime[keystroke] = performance.now() - start;
        await pause(KEYSTROKE_INTERVAL_MS);
      }
      await pause(1_000);
      search.dispose();
      pageTime.push(...ownTime);
    }
    return { pageTime, answerTime, indexTime };
  },
};

declare global {
  interface Window {
    searchBench: typeof searchBench;
  }
}

window.searchBench = searchBench;
