import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import fs from 'node:fs';
import path from 'node:path';

/** Where the console is served (docs/console.md). */
export const CONSOLE_PATH = '/console';

/**
 * The policy of every page the service serves on its origin, the console and the API's docs
 * (/api/docs): their own scripts, styles and API only; no inline script or style, no eval, no frame,
 * no request anywhere else (docs/console.md#4-security). One definition: a page on the console's
 * origin without it would be a way around it.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Express middleware: PAGE_SECURITY_HEADERS on every answer under the path it is mounted at. */
export function pageSecurityHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.set(PAGE_SECURITY_HEADERS);
  next();
}

/**
 * The built console (scripts/build-console.mjs writes dist/console): beside the compiled service
 * (dist/src/console → dist/console), or the checkout's dist/ when the service runs from its sources (tests).
 */
export function consoleDirectory(): string | null {
  const candidates = [
    path.resolve(__dirname, '../../console'),
    path.resolve(__dirname, '../../dist/console'),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'manifest.json'))) ?? null;
}

/**
 * Serves the console's files with Nest's own static serving (express.static under the hood), before the API's routes: no bearer auth (the page signs in
 * with the key the user types, and every call it makes is authenticated by the API), the API's envelope
 * and rate limit do not apply. Hashed assets are cached for a year; index.html is revalidated each time.
 */
export function serveConsole(
  app: NestExpressApplication,
  directory: string | null = consoleDirectory(),
): void {
  app.use(CONSOLE_PATH, pageSecurityHeaders, (request: Request, response: Response, next: NextFunction) => {
    if (directory !== null) return next();
    response
      .status(503)
      .type('text/plain')
      .send('The console is not built: run `npm run build` (docs/console.md).\n');
  });
  if (directory === null) return;
  // gzip or brotli, as the browser asks: the first load is about a third of its size on the wire.
  app.use(CONSOLE_PATH, compression());
  app.useStaticAssets(directory, {
    prefix: CONSOLE_PATH,
    index: 'index.html',
    redirect: true,
    dotfiles: 'ignore',
    fallthrough: true,
    etag: true,
    lastModified: false,
    setHeaders: (response: Response, file: string) => {
      const asset = path.relative(directory, file).startsWith('assets' + path.sep);
      response.setHeader('Cache-Control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Nothing else lives under /console: an unknown file is a plain 404, not the API's envelope.
  app.use(CONSOLE_PATH, (request: Request, response: Response) => {
    response.status(404).type('text/plain').send(`Not found: ${CONSOLE_PATH}${request.path}\n`);
  });
}
