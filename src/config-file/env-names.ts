/** A secret of the export: `{"type": "env", "value"}`, its name given once every secret is known. */
interface EnvSecret {
  readonly id: string;
  readonly field: string;
  readonly name: string;
  readonly reference: { type: 'env'; value: string };
}

/**
 * The environment names of an export, distinct (docs/reference/config-file.md#32-no-secret-is-exported):
 * `<PREFIX>_<ID>_<FIELD>`, the id upper-cased, every character other than A-Z and 0-9 as `_`. Ids
 * that map to one name (`n-a`, `N_A`) share it in order of id: the first keeps it, the next get `_2`,
 * `_3`, ... at the end, skipping any name another secret has or the file gave (`named`), so no name
 * stands for two secrets.
 */
export class EnvNames {
  private readonly secrets: EnvSecret[] = [];
  /** Names the source file gave (a network's RPC URL read from a variable): never given to another secret. */
  private readonly given = new Set<string>();

  /** The reference the file was written with, its name kept as it is. */
  named(name: string): EnvSecret['reference'] {
    this.given.add(name);
    return { type: 'env', value: name };
  }

  reference(prefix: string, id: string, field: string): EnvSecret['reference'] {
    const name = [prefix, id, field].map((part) => part.toUpperCase().replace(/[^A-Z0-9]/g, '_')).join('_');
    const reference = { type: 'env' as const, value: name };
    this.secrets.push({ id, field, name, reference });
    return reference;
  }

  /** Gives each reference its distinct name; the order of the lists does not matter. */
  assign(): void {
    const names = new Set(this.secrets.map((secret) => secret.name));
    const taken = new Set<string>();
    const ordered = [...this.secrets].sort(
      (a, b) => compare(a.name, b.name) || compare(a.id, b.id) || compare(a.field, b.field),
    );
    for (const { name, reference } of ordered) {
      let value = name;
      const clash = (candidate: string) =>
        taken.has(candidate) || this.given.has(candidate) || (candidate !== name && names.has(candidate));
      for (let n = 2; clash(value); n++) value = `${name}_${n}`;
      taken.add(value);
      reference.value = value;
    }
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
