// Import rules of the layering (npm run check): common knows no feature, config is the bottom floor.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'common-knows-no-feature',
      comment:
        'src/common holds what every feature uses; it may use config, never a feature, the app module or the bootstrap',
      severity: 'error',
      from: { path: '^src/common/' },
      // Anything of src/ outside common and config is a feature (or the app around them).
      to: { path: '^src/', pathNot: '^src/(common|config)/' },
    },
    {
      name: 'config-is-the-bottom-floor',
      comment: 'src/config is read by everything and imports nothing of the application',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'features-meet-through-their-faces',
      comment:
        'a feature may import another feature only through its public face (index.ts), its module and its ' +
        'events file (docs/architecture.md): the rest of a feature folder is its own',
      severity: 'error',
      // A unit test may reach inside the feature it needs (e.g. to spy on a module's function).
      from: { path: '^src/([^/]+)/', pathNot: ['^src/(common|config|database)/', '[.]spec[.]ts$'] },
      to: {
        path: '^src/([^/]+)/',
        pathNot: [
          '^src/$1/',
          '^src/(common|config|database)/',
          '^src/[^/]+/index[.]ts$',
          '[.]module[.]ts$',
          '-events[.]ts$',
        ],
      },
    },
    {
      name: 'no-circular',
      comment: 'no file reaches itself through its imports (type-only imports included)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-features',
      comment:
        'no feature folder reaches itself through other folders (src/common keeps its own helpers apart)',
      severity: 'error',
      scope: 'folder',
      from: { pathNot: '^src/common/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports couple the layers too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
