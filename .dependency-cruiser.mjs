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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports couple the layers too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
