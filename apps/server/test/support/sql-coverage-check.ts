import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { SQLITE_ONLY } from './databases.ts';

/** What `sql-coverage.ts` records for one test file: the shapes of the server's statements. */
export interface FileStatements {
  file: string;
  statements: string[];
}

/** Per SQLite-only file, the statements it ran that no file running on PostgreSQL ran. */
export function sqliteOnlyStatements(recorded: FileStatements[], sqliteOnly: string[]): FileStatements[] {
  const onPostgres = new Set(
    recorded.filter((r) => !sqliteOnly.includes(r.file)).flatMap((r) => r.statements),
  );
  return recorded
    .filter((r) => sqliteOnly.includes(r.file))
    .map((r) => ({ file: r.file, statements: r.statements.filter((s) => !onPostgres.has(s)) }))
    .filter((r) => r.statements.length > 0);
}

/**
 * Global setup of the server-sqlite project: gives the files a folder to record their SQL in
 * (`sql-coverage.ts`) and, after a run of every file, checks the list of SQLite-only files
 * (`databases.ts`): each names a test file, and none ran a statement that PostgreSQL did not.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-sql-coverage-'));
  project.provide('sqlCoverageDir', dir);
  return async () => {
    try {
      const root = project.config.root;
      const { testFiles } = await project.globTestFiles();
      const files = testFiles.map((file) => path.relative(root, file));
      const unknown = SQLITE_ONLY.filter((file) => !files.includes(file));
      if (unknown.length) {
        throw new Error(`test/support/databases.ts lists files that do not exist: ${unknown.join(', ')}`);
      }
      const recorded = fs
        .readdirSync(dir)
        .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as FileStatements);
      // A run of some files only (a developer's filter) cannot tell what PostgreSQL covers.
      if (recorded.length < files.length) return;
      const missed = sqliteOnlyStatements(recorded, SQLITE_ONLY);
      if (!missed.length) {
        const statements = new Set(recorded.flatMap((r) => r.statements)).size;
        console.log(
          `SQL coverage: the ${SQLITE_ONLY.length} SQLite-only files ran no statement that PostgreSQL did not ` +
            `(${statements} distinct statements in ${recorded.length} files).`,
        );
      } else {
        throw new Error(
          'SQL that would run only on SQLite: these files are listed in test/support/databases.ts as ' +
            'SQLite-only, but ran statements that no file running on PostgreSQL runs. Take them off ' +
            'the list, or cover the statements in a file that runs on both:\n' +
            missed
              .map((r) => `  ${r.file}:\n${r.statements.map((s) => `    ${s.slice(0, 300)}`).join('\n')}`)
              .join('\n'),
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
