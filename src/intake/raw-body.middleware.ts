import type { NextFunction, Request, Response } from 'express';

/**
 * Collects the exact bytes of the request (the signature covers them) with a size limit.
 * Past the limit the delivery is answered 413 without reading the rest.
 */
export function rawBodyMiddleware(limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limitBytes) {
      res.status(413).json({ error: { code: 'payload_too_large', message: `body exceeds ${limitBytes} bytes` } });
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (chunk: Buffer) => {
      if (aborted) return;
      size += chunk.length;
      if (size > limitBytes) {
        aborted = true;
        res.status(413).json({ error: { code: 'payload_too_large', message: `body exceeds ${limitBytes} bytes` } });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (aborted) return;
      (req as Request & { rawBody?: Buffer }).rawBody = Buffer.concat(chunks);
      next();
    });
    req.on('error', next);
  };
}
