import 'reflect-metadata';
import Fastify from 'fastify';
import { ROUTE_FACTS, registerRoutePolicies } from './route-policies';

class KeyGuard {}
class OtherGuard {}

/** A Fastify app with the policies, and one route with these facts and this body limit. */
async function appWith(guards: unknown[], bodyLimit: number) {
  const app = Fastify();
  const authenticated: string[] = [];
  registerRoutePolicies(app, {
    apiPrefixes: ['/v1/'],
    defaultBodyLimit: 16 * 1024,
    authenticators: [
      {
        guard: KeyGuard,
        authenticate: async (request) => {
          if (request.headers.authorization !== 'Bearer good')
            throw Object.assign(new Error('no'), { statusCode: 401 });
          authenticated.push(request.url);
        },
      },
    ],
  });
  app.post('/v1/big', { bodyLimit, config: { [ROUTE_FACTS]: { bodyDto: null, guards } } }, async () => ({
    ok: true,
  }));
  await app.ready();
  return { app, authenticated };
}

describe('registerRoutePolicies', () => {
  it('authenticates a route that takes more than the server limit before its body, with its guard’s check', async () => {
    const { app, authenticated } = await appWith([OtherGuard, KeyGuard], 2 * 1024 * 1024);
    const refused = await app.inject({ method: 'POST', url: '/v1/big', payload: { a: 1 } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers.connection).toBe('close');
    const accepted = await app.inject({
      method: 'POST',
      url: '/v1/big',
      payload: { a: 1 },
      headers: { authorization: 'Bearer good' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(authenticated).toEqual(['/v1/big']);
    await app.close();
  });

  it('refuses to start with a large-body route none of whose guards can authenticate early', async () => {
    await expect(appWith([OtherGuard], 2 * 1024 * 1024)).rejects.toThrow(
      'POST /v1/big takes bodies of up to 2097152 bytes but none of its guards can authenticate before the body is read',
    );
  });

  it('leaves a route within the server limit to its guards', async () => {
    const { app, authenticated } = await appWith([OtherGuard], 16 * 1024);
    expect((await app.inject({ method: 'POST', url: '/v1/big', payload: { a: 1 } })).statusCode).toBe(200);
    expect(authenticated).toEqual([]);
    await app.close();
  });
});
