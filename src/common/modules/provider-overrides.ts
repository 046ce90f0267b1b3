import type {
  ClassProvider,
  DynamicModule,
  FactoryProvider,
  ForwardReference,
  InjectionToken,
  Provider,
  Type,
  ValueProvider,
} from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';

/**
 * A replacement of a provider of the service (docs/reference/extension-events.md#3-replaceable-parts):
 * `provide` names the part, and `useClass`, `useValue` or `useFactory` (with `inject`) gives the new one.
 */
export type ProviderOverride = ClassProvider | ValueProvider | FactoryProvider;

type ModuleDefinition = Type<unknown> | DynamicModule | Promise<DynamicModule> | ForwardReference;
type Resolved = Type<unknown> | DynamicModule;
type Key = keyof typeof MODULE_METADATA;

const KEYS: readonly Key[] = ['IMPORTS', 'PROVIDERS', 'CONTROLLERS', 'EXPORTS'];

/** Thrown at start when an override names a token that no module of the service or its extensions provides. */
export class UnknownOverrideError extends Error {}

/**
 * The module graph of `root` where every module that provides an overridden token provides the override
 * instead, so that every injection of the token, in every module, gets it. Modules are rebuilt only when
 * they provide such a token or import (transitively) one that does: the others keep their identity, and
 * with no override the graph is `root` itself. Each rebuilt module exists once, as the original did.
 */
export async function applyProviderOverrides(
  root: DynamicModule,
  overrides: readonly ProviderOverride[],
): Promise<DynamicModule> {
  if (overrides.length === 0) return root;
  const byToken = new Map(overrides.map((override) => [override.provide, override]));
  const graph = new ModuleGraph();
  await graph.visit(root);
  const unused = [...byToken.keys()].filter((token) => !graph.provided.has(token));
  if (unused.length > 0) {
    throw new UnknownOverrideError(
      `overrides: no module of the service or its extensions provides ${unused.map(nameOf).join(', ')}`,
    );
  }
  const rebuilt = graph.rebuild(byToken);
  return (rebuilt.get(root) as DynamicModule | undefined) ?? root;
}

class ModuleGraph {
  /** Every module met, with what it imports once resolved. */
  private readonly nodes = new Map<Resolved, { imports: Resolved[]; providers: Provider[] }>();
  private readonly resolved = new Map<ModuleDefinition, Resolved>();
  readonly provided = new Set<InjectionToken>();

  async visit(definition: ModuleDefinition): Promise<Resolved> {
    const known = this.resolved.get(definition);
    if (known) return known;
    const module = await resolve(definition);
    this.resolved.set(definition, module);
    if (this.nodes.has(module)) return module;
    const node = { imports: [] as Resolved[], providers: metadata<Provider>(module, 'PROVIDERS') };
    this.nodes.set(module, node);
    for (const provider of node.providers) this.provided.add(tokenOf(provider));
    for (const imported of metadata<ModuleDefinition>(module, 'IMPORTS')) {
      node.imports.push(await this.visit(imported));
    }
    return module;
  }

  /** The rebuilt module of each module (and each definition of it) that needs one. */
  rebuild(byToken: ReadonlyMap<InjectionToken, ProviderOverride>): Map<unknown, Resolved> {
    const affected = new Set<Resolved>();
    for (const [module, node] of this.nodes) {
      if (node.providers.some((provider) => byToken.has(tokenOf(provider)))) affected.add(module);
    }
    for (let grew = true; grew;) {
      grew = false;
      for (const [module, node] of this.nodes) {
        if (!affected.has(module) && node.imports.some((imported) => affected.has(imported))) {
          affected.add(module);
          grew = true;
        }
      }
    }
    const replacement = new Map<unknown, Resolved>();
    for (const module of affected) replacement.set(module, shell(module));
    for (const [definition, module] of this.resolved) {
      const rebuilt = replacement.get(module);
      if (rebuilt) replacement.set(definition, rebuilt);
    }
    const swap = (entry: unknown): unknown => replacement.get(entry) ?? entry;
    for (const module of affected) {
      const target = replacement.get(module) as Resolved;
      const lists = {
        IMPORTS: metadata<unknown>(module, 'IMPORTS').map(swap),
        PROVIDERS: metadata<Provider>(module, 'PROVIDERS').map((provider) => {
          const override = byToken.get(tokenOf(provider));
          return override ? ({ ...override } as Provider) : provider;
        }),
        CONTROLLERS: metadata<unknown>(module, 'CONTROLLERS'),
        EXPORTS: metadata<unknown>(module, 'EXPORTS').map(swap),
      };
      fill(module, target, lists);
    }
    return replacement;
  }
}

async function resolve(definition: ModuleDefinition): Promise<Resolved> {
  const awaited: unknown = await definition;
  return isForwardReference(awaited) ? awaited.forwardRef() : (awaited as Resolved);
}

function isForwardReference(value: unknown): value is { forwardRef: () => Resolved } {
  return typeof value === 'object' && value !== null && 'forwardRef' in value;
}

const isDynamic = (module: Resolved): module is DynamicModule => typeof module === 'object';

/** Static metadata of the class, then what a dynamic module adds (Nest reads both). */
function metadata<T>(module: Resolved, key: Key): T[] {
  const type = isDynamic(module) ? module.module : module;
  const own = (Reflect.getMetadata(MODULE_METADATA[key], type) as T[] | undefined) ?? [];
  if (!isDynamic(module)) return [...own];
  const field = MODULE_METADATA[key] as 'imports' | 'providers' | 'controllers' | 'exports';
  return [...own, ...((module[field] as T[] | undefined) ?? [])];
}

/** A class of the same name whose metadata is set by `fill`; a dynamic module keeps its own fields. */
function shell(module: Resolved): Resolved {
  const type = isDynamic(module) ? module.module : module;
  const Rebuilt = class extends (type as new (...args: never[]) => object) {};
  Object.defineProperty(Rebuilt, 'name', { value: type.name });
  return isDynamic(module) ? { ...module, module: Rebuilt } : Rebuilt;
}

/** Everything goes on the rebuilt class; a dynamic module's own lists are emptied (they are in the class). */
function fill(original: Resolved, target: Resolved, lists: Record<Key, unknown[]>): void {
  const type = isDynamic(target) ? target.module : target;
  for (const key of KEYS) Reflect.defineMetadata(MODULE_METADATA[key], lists[key], type);
  if (isDynamic(original) && isDynamic(target)) {
    Object.assign(target, { imports: [], providers: [], controllers: [], exports: [] });
  }
}

function tokenOf(provider: Provider): InjectionToken {
  return typeof provider === 'function' ? provider : provider.provide;
}

function nameOf(token: InjectionToken): string {
  return typeof token === 'function' ? token.name : String(token);
}
