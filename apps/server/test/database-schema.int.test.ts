import { expect, it } from 'vitest';
import { describeSchema } from './support/database-schema.ts';
import { createTestApp, testDatabaseKind } from './support/test-app.ts';

// Guards the migrations: a change to what they build shows here as a diff to review, and a new
// migration updates the recorded schema with `npx vitest run -u test/database-schema.int.test.ts`.
it('migrates a fresh database to the schema recorded for its dialect', async () => {
  const t = await createTestApp();
  try {
    const schema = `${JSON.stringify(await describeSchema(t.db), null, 2)}\n`;
    await expect(schema).toMatchFileSnapshot(`./database-schema/${testDatabaseKind()}.json`);
  } finally {
    await t.close();
  }
});
