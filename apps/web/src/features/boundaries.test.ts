import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = path.resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The features a file imports other than its own, as `file -> feature` lines. */
function crossFeatureImports(file: string, source = fs.readFileSync(file, 'utf8')): string[] {
  const own = path.relative(FEATURES, file).split(path.sep)[0];
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((m) => m[1]!);
  return specifiers.flatMap((specifier) => {
    const target = path.relative(FEATURES, path.resolve(path.dirname(file), specifier));
    const feature = target.startsWith('..') ? undefined : target.split(path.sep)[0];
    return feature && feature !== own ? [`${path.relative(FEATURES, file)} -> ${feature}`] : [];
  });
}

describe('feature boundaries (DESIGN.md section 3)', () => {
  it('no feature imports another; routes compose them, shared pieces live in components/ or lib/', () => {
    expect(sourceFiles(FEATURES).flatMap((file) => crossFeatureImports(file))).toEqual([]);
  });

  it('would notice a feature importing another, statically or lazily', () => {
    const file = path.join(FEATURES, 'agents', 'components', 'page.tsx');
    const source = [
      "import { LogoutButton } from '../../auth';",
      "import { Logo } from '../../../components/logo';",
      "import { draftOf } from '../agents-logic';",
      "const panel = import('../../services/components/panel');",
    ].join('\n');
    expect(crossFeatureImports(file, source)).toEqual([
      `agents${path.sep}components${path.sep}page.tsx -> auth`,
      `agents${path.sep}components${path.sep}page.tsx -> services`,
    ]);
  });
});
