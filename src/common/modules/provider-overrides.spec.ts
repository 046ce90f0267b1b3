import { forwardRef, Global, Injectable, Module, type DynamicModule, type Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { applyProviderOverrides, UnknownOverrideError } from './provider-overrides';

@Injectable()
class Part {}
@Injectable()
class Other {}

@Module({ providers: [Part, Other], exports: [Part] })
class PartModule {}
@Global()
@Module({ imports: [PartModule], exports: [PartModule] })
class GlobalReexport {}
@Module({ imports: [forwardRef(() => PartModule)] })
class UserModule {}
@Module({ providers: [Other] })
class Untouched {}

const meta = (type: Type<unknown>, key: keyof typeof MODULE_METADATA): unknown[] =>
  (Reflect.getMetadata(MODULE_METADATA[key], type) as unknown[] | undefined) ?? [];

describe('applyProviderOverrides', () => {
  const root = (): DynamicModule => ({
    module: class Root {},
    imports: [GlobalReexport, UserModule, Untouched],
    providers: [{ provide: 'ROOT', useValue: 1 }],
  });
  const replacement = { provide: Part, useValue: { replaced: true } };

  it('without overrides, the graph is the one given', async () => {
    const given = root();
    expect(await applyProviderOverrides(given, [])).toBe(given);
  });

  it('the module providing the token provides the override, once, under its name; importers are rebuilt', async () => {
    const given = root();
    const rebuilt = await applyProviderOverrides(given, [replacement]);
    const [globalReexport, user, untouched] = meta(rebuilt.module, 'IMPORTS') as Type<unknown>[];
    const [part] = meta(globalReexport, 'IMPORTS') as Type<unknown>[];
    expect({
      root: rebuilt.module === given.module,
      dynamicLists: [rebuilt.imports, rebuilt.providers],
      names: [globalReexport.name, user.name, part.name],
      untouched: untouched === Untouched,
      partOnce: meta(user, 'IMPORTS')[0] === part && meta(globalReexport, 'EXPORTS')[0] === part,
      providers: meta(part, 'PROVIDERS'),
      exports: meta(part, 'EXPORTS'),
      global: Reflect.getMetadata('__module:global__', globalReexport) as unknown,
      originalKept: meta(PartModule, 'PROVIDERS'),
    }).toEqual({
      root: false,
      dynamicLists: [[], []],
      names: ['GlobalReexport', 'UserModule', 'PartModule'],
      untouched: true,
      partOnce: true,
      providers: [replacement, Other],
      exports: [Part],
      global: true,
      originalKept: [Part, Other],
    });
    expect(meta(rebuilt.module, 'PROVIDERS')).toEqual([{ provide: 'ROOT', useValue: 1 }]);
  });

  it('a token nothing provides is refused, named', async () => {
    await expect(applyProviderOverrides(root(), [{ provide: 'NOPE', useValue: 1 }])).rejects.toEqual(
      new UnknownOverrideError('overrides: no module of the service or its extensions provides NOPE'),
    );
  });
});
