import { loggedPath } from './access-log.hooks';

describe('loggedPath: no phone number in an access line (issue 28)', () => {
  it.each([
    ['/v1/opt_outs/%2B233241234567', '/v1/opt_outs/:phone_number'],
    ['/v1/opt_outs/+233241234567', '/v1/opt_outs/:phone_number'],
    ['/v1/opt_outs/not-even-a-number', '/v1/opt_outs/:phone_number'],
  ])('writes %s on its route as the route names the parameter', (path, logged) => {
    expect(loggedPath(path, '/v1/opt_outs/:phone_number')).toBe(logged);
  });

  it.each([
    ['/v1/opt_outs/233241234567', '/v1/opt_outs/***'],
    ['/v1/anything/%2B233%2024%20123%204567/more', '/v1/anything/***/more'],
    ['/v1/x/(024)%20123-4567', '/v1/x/***'],
  ])('writes a number-looking segment of %s as ***, whatever the route', (path, logged) => {
    expect(loggedPath(path, null)).toBe(logged);
  });

  it('leaves ids, words and short numbers alone', () => {
    for (const path of [
      '/v1/messages/msg_0Vc7nlbWhulxECVLlSzXrZ',
      '/v1/messages/12345/cancel',
      '/console/assets/app.js',
    ])
      expect(loggedPath(path, null)).toBe(path);
    expect(loggedPath('/v1/messages/msg_1', '/v1/messages/:id')).toBe('/v1/messages/msg_1');
  });
});
