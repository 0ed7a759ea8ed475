// ESLint 9 flat config: typescript-eslint's type-aware rules, import order and cycles
// (eslint-plugin-import-x), and the layer rule — the import matrix of docs/architecture.md.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * THE import matrix (docs/architecture.md, "Layers"): each folder and the folders its modules may
 * import. `lib/*.ts` are the top-level modules of lib (config, log, routes). Anything not listed
 * for a folder is refused by import-x/no-restricted-paths.
 */
const LIB = ['lib/domain', 'lib/*.ts', 'lib/store', 'lib/auth', 'lib/events', 'lib/http'];
export const LAYERS = {
  'lib/domain': ['lib/domain'],
  'lib/*.ts': ['lib/*.ts', 'lib/domain'],
  'lib/store': ['lib/store', 'lib/*.ts', 'lib/domain'],
  'lib/auth': ['lib/auth', 'lib/store', 'lib/*.ts', 'lib/domain'],
  'lib/events': ['lib/events', 'lib/auth', 'lib/store', 'lib/*.ts', 'lib/domain'],
  'lib/http': LIB,
  functions: LIB,
  local: ['local', ...LIB],
  infra: ['infra', ...LIB],
  scripts: ['scripts', ...LIB],
  bench: ['bench', 'local', ...LIB],
  test: ['test', 'functions', 'local', 'infra', 'scripts', 'bench', ...LIB],
};

const glob = (folder) => (folder.endsWith('.ts') ? `./${folder}` : `./${folder}/**`);
const layerZones = Object.entries(LAYERS)
  .map(([folder, allowed]) => ({
    target: glob(folder),
    from: Object.keys(LAYERS)
      .filter((other) => !allowed.includes(other))
      .map(glob),
    message: `${folder} may import only ${allowed.join(', ')} (docs/architecture.md, "Layers").`,
  }))
  .filter((zone) => zone.from.length > 0);

/**
 * Items, keys and the table's calls stay in lib/store: the layers above it, the functions and the
 * admin CLI reach the table through its named reads and writes (docs/architecture.md, "Layers").
 * Benches seed through the store's primitives, and infra reads the table's definition.
 */
const STORE_INTERNALS = ['keys', 'calls', 'batch', 'query', 'client', 'tx'].map((m) => `./lib/store/${m}.ts`);
const storeInternalZones = ['lib/domain', 'lib/*.ts', 'lib/auth', 'lib/events', 'lib/http', 'functions', 'local', 'scripts'].map((folder) => ({
  target: glob(folder),
  from: STORE_INTERNALS,
  message: `${folder} reaches the table through lib/store's named reads and writes, never its keys or calls (docs/architecture.md, "Layers").`,
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.local/', 'coverage/', 'docs/', 'test/compat/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Imports are written with their .ts extension; `#lib/*` and `#functions/*` resolve through
      // package.json "imports". The TypeScript parser reads imported modules (no-cycle follows them).
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...storeInternalZones] }],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/first': 'error',
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          pathGroups: [{ pattern: '#**', group: 'internal' }],
          alphabetize: { order: 'asc', caseInsensitive: true },
          'newlines-between': 'never',
        },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON response bodies, which JSON.parse types as `any`, and check them with
    // expect(...): the assertions are the type check there, so the any-tracking rules stay off.
    // Their test doubles implement async interfaces, and `async` is how they return or reject.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
