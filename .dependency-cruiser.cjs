/**
 * Import cycles are refused in the server, the contracts and the web app (decision 121).
 * Type-only imports count too: a cycle of types still ties the modules into one unit.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules import each other in one direction only; move the shared part into its own module.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/'] },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      exportsFields: ['exports'],
      // The workspace packages point their `source` condition at the TypeScript sources.
      conditionNames: ['source', 'import', 'types', 'default'],
    },
  },
};
