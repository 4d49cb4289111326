import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleAssetsDir } from '../console-views';

/** A Map, not an object: `constructor` or `__proto__` must not find an inherited "type". */
const TYPES: ReadonlyMap<string, string> = new Map([
  ['console.css', 'text/css; charset=utf-8'],
  ['console.js', 'text/javascript; charset=utf-8'],
  ['message-cost.js', 'text/javascript; charset=utf-8'],
  ['template-preview.js', 'text/javascript; charset=utf-8'],
  ['favicon.svg', 'image/svg+xml'],
]);

/** The console's own stylesheet and script, served from the app (no CDN). */
@ApiExcludeController()
@Controller('console/assets')
export class ConsoleAssetsController {
  private readonly cache = new Map<string, Buffer>();

  @Get(':file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply): void {
    const type = TYPES.get(file);
    if (!type) throw new NotFoundException();
    let content = this.cache.get(file);
    if (!content) {
      content = readFileSync(join(consoleAssetsDir(), file));
      this.cache.set(file, content);
    }
    void reply
      .header('content-type', type)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(content);
  }
}
