import type { Request } from 'express';

interface RouterLayer {
  readonly route?: { readonly methods: Readonly<Record<string, boolean | undefined>> };
  match(path: string): unknown;
}

/** From Express's own router; routes answering the request's own method are Nest's middleware. */
export function allowedMethods(request: Request): string[] {
  // @types/express still describes Express 4's layers; these are the `router` package's.
  const router = request.app.router as unknown as { stack?: readonly RouterLayer[] } | undefined;
  // The full path: a request that reached a router mounted at the global prefix has it stripped from `path`.
  const path = request.originalUrl.split('?', 1)[0];
  const method = request.method.toLowerCase();
  const allowed = new Set<string>();
  for (const layer of router?.stack ?? []) {
    const methods = layer.route?.methods;
    if (!methods || handles(methods, method) || !matches(layer, path)) continue;
    for (const [name, handled] of Object.entries(methods)) if (handled) allowed.add(name.toUpperCase());
  }
  if (allowed.has('GET')) allowed.add('HEAD');
  return [...allowed].sort();
}

function handles(methods: Readonly<Record<string, boolean | undefined>>, method: string): boolean {
  return Boolean(methods[method] || methods._all || (method === 'head' && methods.get));
}

function matches(layer: RouterLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    // A parameter that does not URL-decode: no route answers it.
    return false;
  }
}
