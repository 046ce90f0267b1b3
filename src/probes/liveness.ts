import type { Request, Response } from 'express';
import { requestId } from '../common/logging/logging.module';

export const LIVENESS_PATH = '/api/v1/health';

/** Answered by Express ahead of Nest's pipeline: orchestrators call it all the time, and it needs none of it. */
export function answerLiveness(req: Request, res: Response): void {
  requestId(req, res);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', '2');
  res.end('OK');
}
