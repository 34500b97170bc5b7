// The console's static files, served by the engine itself (offline: no CDN). uPlot comes
// straight from its installed package, so it is exactly the version package-lock.json pins.
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MinRole } from '../roles/min-role.decorator';

const OWN = join(__dirname, 'assets');
const ASSETS: Record<string, { path: string; type: string }> = {
  'console.css': { path: join(OWN, 'console.css'), type: 'text/css' },
  'live.js': { path: join(OWN, 'live.js'), type: 'text/javascript' },
  'budget.js': { path: join(OWN, 'budget.js'), type: 'text/javascript' },
  'branch-chart.js': { path: join(OWN, 'branch-chart.js'), type: 'text/javascript' },
  'favicon.svg': { path: join(OWN, 'favicon.svg'), type: 'image/svg+xml' },
  'uPlot.iife.min.js': { path: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  'uPlot.min.css': { path: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' },
};

@ApiExcludeController()
@MinRole('public')
@Controller('console/assets')
export class ConsoleAssetsController {
  private readonly cache = new Map<string, Buffer>();

  @Get(':name')
  asset(@Param('name') name: string, @Res() res: Response) {
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new NotFoundException();
    let body = this.cache.get(name);
    if (!body) this.cache.set(name, (body = readFileSync(asset.path)));
    res.type(asset.type).setHeader('Cache-Control', 'public, max-age=300');
    res.send(body);
  }
}

/**
 * Browsers ask every origin for /favicon.ico, whatever the page links: the console's icon (an
 * SVG; Chromium and Firefox take it by its type), so no page load logs a 404. Public: it is the
 * same for everyone, and outside the console's session middleware.
 */
@ApiExcludeController()
@MinRole('public')
@Controller()
export class FaviconController {
  private body?: Buffer;

  @Get('favicon.ico')
  favicon(@Res() res: Response) {
    this.body ??= readFileSync(ASSETS['favicon.svg'].path);
    res.type('image/svg+xml').setHeader('Cache-Control', 'public, max-age=86400');
    res.send(this.body);
  }
}
