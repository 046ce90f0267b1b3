// The configuration file's face: what the command-line entry points (src/cli/) and other features import.
export {
  CatalogueConfigError,
  describeContent,
  readConfigFile,
  type ConfigFile,
  type FileEntry,
} from './config-file-loader';
export { describePlan, planChanges, underEntry, type FieldDigests, type StoredState } from './config-plan';
export { ConfigExportService, type ExportedConfig } from './config-export.service';
export { EnvNames } from './env-names';
