import fs from 'node:fs';
import path from 'node:path';
import { defaultSystem } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { createScopedSystem, system } from '@cadre/ui';

// @cadre/ui's system carries only the recipes of the Chakra components Cadre uses (it keeps the web
// app's first download small); a component whose recipe is missing renders unstyled, silently.
// This test reads which components the apps import, finds in Chakra's own build (pinned at 3.37.0)
// which recipes each one asks the system for, and checks that the system has every one of them.
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const SOURCES = ['apps/web/src', 'apps/chat/src', 'packages/ui/src'];
const CHAKRA = path.join(ROOT, 'node_modules/@chakra-ui/react/dist/esm');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every value the apps import from Chakra (type-only imports left out). */
function importedFromChakra(): Set<string> {
  const names = new Set<string>();
  for (const file of SOURCES.flatMap((dir) => sourceFiles(path.join(ROOT, dir)))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [, typeOnly, list] of text.matchAll(
      /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'@chakra-ui\/react'/g,
    )) {
      if (typeOnly) continue;
      for (const item of list!.split(',')) {
        const name = item.trim().split(/\s+as\s+/)[0]!;
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

/** Where Chakra's entry takes each export from, namespaces (`Dialog`, `Menu`...) included. */
function chakraExportFiles(): Map<string, string> {
  const index = fs.readFileSync(path.join(CHAKRA, 'index.js'), 'utf8');
  const files = new Map<string, string>();
  for (const [, list, from] of index.matchAll(/export \{([^}]*)\} from '(\.[^']+)'/g)) {
    for (const item of list!.split(',')) {
      const [name, alias] = item.trim().split(/\s+as\s+/);
      files.set((alias ?? name)!, path.join(CHAKRA, from!));
    }
  }
  const namespaces = new Map(
    [...index.matchAll(/import \* as (\S+) from '(\.[^']+)'/g)].map(([, id, from]) => [
      id!,
      path.join(CHAKRA, from!),
    ]),
  );
  for (const [, id, name] of index.matchAll(/export \{ (\S+) as (\S+) \};/g)) {
    if (namespaces.has(id!)) files.set(name!, namespaces.get(id!)!);
  }
  return files;
}

/** The recipe keys a component's files (and the component files they import) ask the system for. */
function recipeKeys(file: string, seen = new Set<string>()): Set<string> {
  const keys = new Set<string>();
  if (seen.has(file) || !file.includes(`${path.sep}components${path.sep}`)) return keys;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const [, key] of text.matchAll(/\{\s*key:\s*"([^"]+)"/g)) keys.add(key!);
  for (const [, from] of text.matchAll(/from '(\.[^']+)'/g)) {
    for (const key of recipeKeys(path.resolve(path.dirname(file), from!), seen)) keys.add(key);
  }
  return keys;
}

describe("@cadre/ui's Chakra system", () => {
  const exportFiles = chakraExportFiles();
  const used = importedFromChakra();
  const hasRecipe = (sys: typeof system, key: string) => sys.isRecipe(key) || sys.isSlotRecipe(key);

  it('finds the components the apps use', () => {
    // A sanity check of the scan itself: these are on every screen.
    for (const name of ['Button', 'Dialog', 'Menu', 'Table', 'Toast']) expect(used).toContain(name);
    expect(recipeKeys(exportFiles.get('Dialog')!)).toContain('dialog');
    expect(recipeKeys(exportFiles.get('IconButton')!)).toContain('button');
  });

  it('has the recipe of every Chakra component the web app, the chat frame and the copilot use', () => {
    const systems = [
      ['system', system],
      ['scoped system', createScopedSystem('.root')],
    ] as const;
    const missing: string[] = [];
    for (const name of used) {
      const file = exportFiles.get(name);
      if (!file) continue; // a function or a re-export from Ark UI, not a styled component
      for (const key of recipeKeys(file)) {
        // Keys Chakra's own theme has no recipe for are optional (the component styles itself).
        if (!hasRecipe(defaultSystem, key)) continue;
        for (const [label, sys] of systems) {
          if (!hasRecipe(sys, key)) missing.push(`${name} needs the recipe "${key}" (${label})`);
        }
      }
    }
    expect(missing, 'add them to packages/ui/src/theme.ts').toEqual([]);
  });
});
