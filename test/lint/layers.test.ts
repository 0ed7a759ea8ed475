// The layer rule (import-x/no-restricted-paths, configured from the import matrix in
// eslint.config.js and docs/architecture.md) run through ESLint's Node API on fixture sources
// placed, by their file path, inside the layers: it must refuse an upward import and allow a
// downward one. The fixtures exist only as text, so the TypeScript project service cannot type
// them: the type-aware rules are switched off here; the layer rule needs no types.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../local/paths.ts';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: PROJECT_ROOT,
    overrideConfig: [tseslint.configs.disableTypeChecked, { languageOptions: { parserOptions: { projectService: false } } }],
  });
});

/** The layer rule's messages for `code` saved as `file` (a path inside the project). */
async function layerMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${PROJECT_ROOT}/${file}` });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('layer rule', () => {
  it('lib/domain may not import lib/http', async () => {
    const messages = await layerMessages(
      'lib/domain/layer-fixture.ts',
      "import { ApiError } from '../http/errors.ts';\n\nexport const refusal = new ApiError('request.invalid', 'x');\n",
    );
    expect(messages).toEqual([
      'Unexpected path "../http/errors.ts" imported in restricted zone. lib/domain may import only lib/domain (docs/architecture.md, "Layers").',
    ]);
  });

  it('lib/store may not import lib/http', async () => {
    const messages = await layerMessages(
      'lib/store/layer-fixture.ts',
      "import { ERROR_TABLE } from '../http/errors.ts';\n\nexport const table = ERROR_TABLE;\n",
    );
    expect(messages).toEqual([
      'Unexpected path "../http/errors.ts" imported in restricted zone. lib/store may import only lib/store, lib/*.ts, lib/domain (docs/architecture.md, "Layers").',
    ]);
  });

  it('lib/events may not import lib/http (webhooks run outside any request)', async () => {
    const messages = await layerMessages(
      'lib/events/layer-fixture.ts',
      "import { ERROR_TABLE } from '../http/errors.ts';\n\nexport const table = ERROR_TABLE;\n",
    );
    expect(messages).toEqual([
      'Unexpected path "../http/errors.ts" imported in restricted zone. lib/events may import only lib/events, lib/auth, lib/store, lib/*.ts, lib/domain (docs/architecture.md, "Layers").',
    ]);
  });

  it('production code may not import the local dev tooling', async () => {
    const messages = await layerMessages('infra/layer-fixture.ts', "import { LOCAL_TABLE } from '../local/paths.ts';\n\nexport const table = LOCAL_TABLE;\n");
    expect(messages).toHaveLength(1);
  });

  it("the admin CLI and lib/http may not reach the table's keys or calls, only lib/store's named reads and writes", async () => {
    const local = await layerMessages(
      'local/move/layer-fixture.ts',
      "import * as keys from '#lib/store/keys.ts';\n\nexport const key = keys.workspace('w');\n",
    );
    expect(local).toEqual([
      `Unexpected path "#lib/store/keys.ts" imported in restricted zone. local reaches the table through lib/store's named reads and writes, never its keys or calls (docs/architecture.md, "Layers").`,
    ]);
    const http = await layerMessages('lib/http/layer-fixture.ts', "import { queryPages } from '../store/calls.ts';\n\nexport const pages = queryPages;\n");
    expect(http).toHaveLength(1);
    expect(
      await layerMessages('local/move/layer-fixture.ts', "import { getWorkspace } from '#lib/store/workspaces.ts';\n\nexport const read = getWorkspace;\n"),
    ).toEqual([]);
  });

  it('a downward import is quiet: lib/store → lib/domain, a handler → #lib/http', async () => {
    expect(
      await layerMessages(
        'lib/store/layer-fixture.ts',
        "import { NotFound } from '../domain/errors.ts';\n\nexport const missing = new NotFound('entity', 'x');\n",
      ),
    ).toEqual([]);
    expect(await layerMessages('functions/layer-fixture.ts', "import { api } from '#lib/http/pipeline.ts';\n\nexport const pipeline = api;\n")).toEqual([]);
  });
});
