// `npm run lint`'s layer rule (docs/decisions/0011). Type-only imports count: a type that points
// back up ties the layers as surely as a value does.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle, whatever its length, type-only imports included (docs/decisions/0011).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-and-ui-never-import-a-feature',
      severity: 'error',
      comment:
        'platform/ and ui/ never import a feature; the one exception is the table list that drizzle-kit and the typed client read (docs/decisions/0011).',
      from: { path: '^app/(platform|ui)/', pathNot: '^app/platform/db/schema[.]ts$' },
      to: { path: '^app/features/' },
    },
    {
      name: 'schemas-import-only-schemas-and-types',
      severity: 'error',
      comment: 'A table definition never imports a server module, not even for a type: shared column types live in a types module.',
      from: { path: '(^|/)schema[.]ts$' },
      to: { path: '[.]server[.]tsx?$' },
    },
  ],
  options: {
    // Tests stand outside the layers: they drive the whole app.
    exclude: { path: '[.]test[.]tsx?$|^node_modules/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    cache: false,
  },
}
