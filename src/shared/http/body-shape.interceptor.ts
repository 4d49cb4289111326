import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { shapeRefusal, SchemaError } from './body-schema.refusal';
import { bodyShapeOfRoute } from './route-policies';

type CheckedRequest = FastifyRequest & { validationError?: { validation?: readonly SchemaError[] } };

/**
 * Answers a body that failed its route's shape (route-policies.ts) after the guards, so
 * authentication and rate limits come first, and before the ValidationPipe, so nothing walks a
 * body of unbounded shape. A request without a body is left to the pipe (it names the missing
 * fields).
 */
@Injectable()
export class BodyShapeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<CheckedRequest>();
      const failure = request.validationError?.validation?.[0];
      const shape = failure ? bodyShapeOfRoute(request) : undefined;
      if (failure && shape && request.body !== undefined && request.body !== null)
        throw shapeRefusal(failure, shape, request.body);
    }
    return next.handle();
  }
}
