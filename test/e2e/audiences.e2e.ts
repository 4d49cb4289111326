import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AudiencePage } from '../../src/audiences/application/queries/audience.queries';
import { CONTACT_EVENT_TYPES } from '../../src/audiences/domain/audience.events';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { RebuildProjections } from '../../src/shared/projections/rebuild-projections.command';
import { createMerchant, Merchant } from '../support/merchant';
import { eventually, expectError, startTestApp, TestApp, TestResponse } from '../support/test-app';

/**
 * Audiences end to end over HTTP (API.md, "Audiences: contacts, groups, imports, templates"):
 * every route and rule, each environment its own audience.
 */
jest.setTimeout(180_000);

let serial = 0;
/** A fresh valid MTN number for each call (suites share nothing, but a test may reuse a wallet). */
const mtn = () => `+23324${String(1_000_000 + ((Date.now() * 7 + ++serial * 7919) % 8_999_999)).slice(0, 7)}`;

describe('Audiences: contacts, groups, CSV imports, templates', () => {
  let t: TestApp;
  let m: Merchant;

  beforeAll(async () => {
    t = await startTestApp({ env: { CONTACT_IMPORT_POLL_MS: '50' } });
    m = await createMerchant(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  const call = (method: string, path: string, body?: unknown, key = m.testKey) =>
    t.request(method, path, { key, ...(body === undefined ? {} : { body }) });
  const ok = (response: TestResponse, status = 200) => {
    expect({ status: response.status, body: response.body }).toMatchObject({ status });
    return response.body;
  };
  const contact = async (body: Record<string, unknown>, key = m.testKey) =>
    ok(await call('POST', '/v1/contacts', body, key));
  const group = async (name = 'A group', key = m.testKey) =>
    ok(await call('POST', '/v1/groups', { name }, key));
  const csv = (text: string, query = '', key = m.testKey, type = 'text/csv') =>
    t.request('POST', `/v1/contact_imports${query}`, { key, body: text, headers: { 'content-type': type } });
  const finished = (id: string, key = m.testKey) =>
    eventually(
      async () => {
        const r = await call('GET', `/v1/contact_imports/${id}`, undefined, key);
        return r.body.status === 'processing' ? undefined : r.body;
      },
      60_000,
      `import ${id} to finish`,
    );
  const list = async (query: string, key = m.testKey) =>
    ok(await call('GET', `/v1/contacts${query}`, undefined, key));

  describe('contacts', () => {
    it('adds a contact with a name, fields and groups, and reads it back', async () => {
      const g = await group('JSS 2 parents');
      const number = mtn();
      const created = await contact({
        phone_number: number,
        name: '  Ama   Mensah ',
        fields: { first_name: 'Ama', class: 'JSS 2' },
        groups: [g.id],
      });
      expect(created).toEqual({
        object: 'contact',
        id: expect.stringMatching(/^con_/),
        phone_number: number,
        name: 'Ama Mensah',
        fields: { class: 'JSS 2', first_name: 'Ama' },
        groups: [g.id],
        opted_out: false,
        created_at: expect.any(String),
        updated_at: created.created_at,
      });
      expect(ok(await call('GET', `/v1/contacts/${created.id}`))).toEqual(created);
      expect(ok(await call('GET', `/v1/groups/${g.id}`)).contacts).toBe(1);
    });

    it('keeps a number unique in the environment: 409 contact_exists on phone_number, also for requests at once', async () => {
      const number = mtn();
      await contact({ phone_number: number });
      const again = expectError(
        await call('POST', '/v1/contacts', { phone_number: number }),
        409,
        'contact_exists',
      );
      expect(again.param).toBe('phone_number');
      // The other environment (and another merchant) has its own audience.
      await contact({ phone_number: number }, m.liveKey);
      const other = await createMerchant(t);
      await contact({ phone_number: number }, other.testKey);

      const racing = mtn();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => call('POST', '/v1/contacts', { phone_number: racing })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect((await list(`?search=${encodeURIComponent(racing)}`)).data).toHaveLength(1);
    });

    it('refuses what a contact cannot hold, each with its code and param', async () => {
      const refused = async (body: unknown, status: number, code: string, param: string) => {
        const error = expectError(await call('POST', '/v1/contacts', body), status, code);
        expect(error.param).toBe(param);
      };
      await refused({ phone_number: '0241234567' }, 400, 'invalid_phone_number', 'phone_number');
      await refused({ phone_number: '+23330123456' }, 400, 'invalid_phone_number', 'phone_number');
      await refused({}, 400, 'parameter_missing', 'phone_number');
      await refused(
        { phone_number: mtn(), fields: { 'First Name': 'x' } },
        400,
        'invalid_field_name',
        'fields.First Name',
      );
      await refused({ phone_number: mtn(), fields: { name: 'x' } }, 400, 'invalid_field_name', 'fields.name');
      await refused(
        { phone_number: mtn(), fields: { note: 'x'.repeat(201) } },
        400,
        'invalid_field_value',
        'fields.note',
      );
      await refused({ phone_number: mtn(), fields: { note: 5 } }, 400, 'invalid_field_value', 'fields.note');
      const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, 'x']));
      await refused({ phone_number: mtn(), fields: many }, 400, 'too_many_fields', 'fields');
      await refused({ phone_number: mtn(), fields: ['x'] }, 400, 'parameter_invalid', 'fields');
      await refused({ phone_number: mtn(), name: 'x'.repeat(101) }, 400, 'invalid_name', 'name');
      await refused(
        { phone_number: mtn(), groups: ['grp_0000000000000000000000'] },
        404,
        'resource_missing',
        'groups[0]',
      );
      const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'x'.repeat(200)]));
      await contact({ phone_number: mtn(), fields: twenty });
    });

    it('lists newest first with cursor pages, and searches by name prefix or number prefix', async () => {
      const other = await createMerchant(t);
      const key = other.testKey;
      const made = [];
      for (const [number, name] of [
        ['+233241000001', 'Kofi Mensah'],
        ['+233241000002', 'Kofi Boateng'],
        ['+233501000003', 'Ámá Owusu'],
        ['+233201000004', null],
      ] as const)
        made.push(await contact({ phone_number: number, ...(name ? { name } : {}) }, key));
      const page1 = await list('?limit=3', key);
      expect(page1.data.map((c: { id: string }) => c.id)).toEqual([made[3].id, made[2].id, made[1].id]);
      expect(page1.has_more).toBe(true);
      const page2 = await list(`?limit=3&starting_after=${page1.data[2].id}`, key);
      expect(page2).toEqual({ object: 'list', data: [made[0]], has_more: false });

      const names = async (search: string) =>
        (await list(`?search=${encodeURIComponent(search)}`, key)).data.map((c: { name: string }) => c.name);
      expect(await names('kofi')).toEqual(['Kofi Boateng', 'Kofi Mensah']);
      expect(await names('KOFI M')).toEqual(['Kofi Mensah']);
      expect(await names('ama')).toEqual(['Ámá Owusu']);
      expect(await names('mensah')).toEqual([]);
      const numbers = async (search: string) =>
        (await list(`?search=${encodeURIComponent(search)}`, key)).data.map(
          (c: { phone_number: string }) => c.phone_number,
        );
      expect(await numbers('+23324')).toEqual(['+233241000001', '+233241000002']);
      expect(await numbers('0241')).toEqual(['+233241000001', '+233241000002']);
      expect(await numbers('050')).toEqual(['+233501000003']);
      const first = await list('?search=0241&limit=1', key);
      expect(first.has_more).toBe(true);
      const next = await list(`?search=0241&limit=1&starting_after=${first.data[0].id}`, key);
      expect(next.data.map((c: { phone_number: string }) => c.phone_number)).toEqual(['+233241000002']);
      expectError(await call('GET', '/v1/contacts?limit=101', undefined, key), 400, 'invalid_limit');
      expectError(await call('GET', `/v1/contacts?starting_after=${made[0].id}`), 404, 'resource_missing');
    });

    it('changes only what a PATCH gives: fields merged (null removes), the number moved and the old one freed', async () => {
      const number = mtn();
      const c = await contact({
        phone_number: number,
        name: 'Yaw',
        fields: { class: 'JSS 1', house: 'Blue' },
      });
      const renamed = ok(await call('PATCH', `/v1/contacts/${c.id}`, { name: 'Yaw Asante' }));
      expect(renamed).toMatchObject({
        name: 'Yaw Asante',
        fields: { class: 'JSS 1', house: 'Blue' },
        phone_number: number,
      });
      const merged = ok(
        await call('PATCH', `/v1/contacts/${c.id}`, { fields: { class: 'JSS 2', house: null, bus: '3' } }),
      );
      expect(merged.fields).toEqual({ bus: '3', class: 'JSS 2' });
      expect(merged.updated_at >= renamed.updated_at).toBe(true);

      const taken = (await contact({ phone_number: mtn() })).phone_number;
      expectError(
        await call('PATCH', `/v1/contacts/${c.id}`, { phone_number: taken }),
        409,
        'contact_exists',
      );
      const moved = mtn();
      expect(ok(await call('PATCH', `/v1/contacts/${c.id}`, { phone_number: moved })).phone_number).toBe(
        moved,
      );
      await contact({ phone_number: number }); // the old number is free again
      expectError(await call('POST', '/v1/contacts', { phone_number: moved }), 409, 'contact_exists');
      expect(
        (await list(`?search=${encodeURIComponent(moved)}`)).data.map((x: { id: string }) => x.id),
      ).toEqual([c.id]);
      expect(ok(await call('PATCH', `/v1/contacts/${c.id}`, { name: null })).name).toBeNull();
      expectError(
        await call('PATCH', `/v1/contacts/${c.id}`, { fields: { 'Bad Name': 'x' } }),
        400,
        'invalid_field_name',
      );
      expectError(
        await call('PATCH', '/v1/contacts/con_0000000000000000000000', { name: 'x' }),
        404,
        'resource_missing',
      );
      expectError(
        await call('PATCH', `/v1/contacts/${c.id}`, { name: 'x' }, m.liveKey),
        404,
        'resource_missing',
      );
    });

    it("shows the opt-out list's word on a contact, and changes it through that list", async () => {
      const c = await contact({ phone_number: mtn() });
      ok(await call('POST', '/v1/opt_outs', { phone_number: c.phone_number }));
      expect(ok(await call('GET', `/v1/contacts/${c.id}`)).opted_out).toBe(true);
      const optedIn = ok(await call('PATCH', `/v1/contacts/${c.id}`, { opted_out: false }));
      expect(optedIn.opted_out).toBe(false);
      const listed = async () =>
        ok(await call('GET', '/v1/opt_outs?limit=100')).data.map(
          (o: { phone_number: string }) => o.phone_number,
        );
      expect(await listed()).not.toContain(c.phone_number);
      expect(ok(await call('PATCH', `/v1/contacts/${c.id}`, { opted_out: true })).opted_out).toBe(true);
      expect(await listed()).toContain(c.phone_number);
      expect((await list(`?search=${encodeURIComponent(c.phone_number)}`)).data[0].opted_out).toBe(true);
      expectError(
        await call('PATCH', `/v1/contacts/${c.id}`, { opted_out: 'yes' }),
        400,
        'parameter_invalid',
      );
    });

    it('deletes a contact (its messages and its opt-out stay, its number is free again)', async () => {
      const c = await contact({ phone_number: '+233200000001', name: 'Sandbox' });
      const sent = ok(
        await call('POST', '/v1/messages', {
          to: c.phone_number,
          sender_id: 'MyShop',
          message: 'Hi',
          type: 'transactional',
        }),
      );
      ok(await call('POST', '/v1/opt_outs', { phone_number: c.phone_number }));
      expect(ok(await call('DELETE', `/v1/contacts/${c.id}`))).toEqual({
        object: 'contact',
        id: c.id,
        deleted: true,
      });
      expectError(await call('GET', `/v1/contacts/${c.id}`), 404, 'resource_missing');
      expectError(await call('DELETE', `/v1/contacts/${c.id}`), 404, 'resource_missing');
      expect(ok(await call('GET', `/v1/messages/${sent.id}`)).to).toBe(c.phone_number);
      const again = await contact({ phone_number: c.phone_number });
      expect(again.opted_out).toBe(true);
      expect((await list('?search=sandbox')).data).toEqual([]);
    });

    it('answers 401 without a key and 404 for an id of another environment', async () => {
      expect((await t.request('GET', '/v1/contacts')).status).toBe(401);
      const c = await contact({ phone_number: mtn() });
      expectError(await call('GET', `/v1/contacts/${c.id}`, undefined, m.liveKey), 404, 'resource_missing');
      expectError(
        await call('DELETE', `/v1/contacts/${c.id}`, undefined, m.liveKey),
        404,
        'resource_missing',
      );
      expectError(await call('GET', '/v1/contacts/nonsense'), 404, 'resource_missing');
    });
  });

  describe('groups', () => {
    it('creates, lists and reads groups with their counts, and refuses a nameless one', async () => {
      const other = await createMerchant(t);
      const a = await group('Parents', other.testKey);
      const b = await group('Staff', other.testKey);
      expect(a).toEqual({
        object: 'group',
        id: expect.stringMatching(/^grp_/),
        name: 'Parents',
        contacts: 0,
        created_at: expect.any(String),
      });
      expect(ok(await call('GET', '/v1/groups', undefined, other.testKey))).toEqual({
        object: 'list',
        data: [b, a],
        has_more: false,
      });
      expect(ok(await call('GET', '/v1/groups?limit=1', undefined, other.testKey)).has_more).toBe(true);
      expect(
        ok(await call('GET', `/v1/groups?starting_after=${b.id}`, undefined, other.testKey)).data,
      ).toEqual([a]);
      expectError(await call('POST', '/v1/groups', { name: '  ' }), 400);
      expectError(await call('GET', `/v1/groups/${a.id}`), 404, 'resource_missing');
    });

    it('adds up to 1,000 contacts at once (all or none), lists them in number order, takes one out', async () => {
      const g = await group('Class 3');
      const contacts = [];
      for (const number of ['+233244000003', '+233244000001', '+233244000002'])
        contacts.push(await contact({ phone_number: number.replace('2440', `24${4 + (serial % 5)}0`) }));
      const unknown = expectError(
        await call('POST', `/v1/groups/${g.id}/contacts`, {
          contacts: [contacts[0].id, 'con_0000000000000000000000'],
        }),
        404,
        'resource_missing',
      );
      expect(unknown.param).toBe('contacts[1]');
      expect(ok(await call('GET', `/v1/groups/${g.id}`)).contacts).toBe(0);
      const ids = contacts.map((c) => c.id);
      expect(
        ok(await call('POST', `/v1/groups/${g.id}/contacts`, { contacts: [...ids, ids[0]] })).contacts,
      ).toBe(3);
      expect(ok(await call('POST', `/v1/groups/${g.id}/contacts`, { contacts: ids })).contacts).toBe(3);
      const members = (await list(`?group=${g.id}`)).data.map(
        (c: { phone_number: string }) => c.phone_number,
      );
      expect(members).toEqual([...members].sort());
      expect(members).toHaveLength(3);
      expect(ok(await call('GET', `/v1/contacts/${ids[1]}`)).groups).toEqual([g.id]);
      const after = ok(await call('DELETE', `/v1/groups/${g.id}/contacts/${ids[1]}`));
      expect(after.contacts).toBe(2);
      expect(ok(await call('DELETE', `/v1/groups/${g.id}/contacts/${ids[1]}`)).contacts).toBe(2);
      expect(ok(await call('GET', `/v1/contacts/${ids[1]}`)).groups).toEqual([]);
      const tooMany = Array.from({ length: 1001 }, () => ids[0]);
      expectError(
        await call('POST', `/v1/groups/${g.id}/contacts`, { contacts: tooMany }),
        400,
        'invalid_contacts',
      );
      expectError(
        await call('POST', `/v1/groups/${g.id}/contacts`, { contacts: [] }),
        400,
        'invalid_contacts',
      );
      expectError(
        await call('POST', '/v1/groups/grp_0000000000000000000000/contacts', { contacts: ids }),
        404,
      );
      expectError(await call('DELETE', `/v1/groups/${g.id}/contacts/con_0000000000000000000000`), 404);
      const thousand = Array.from({ length: 1000 }, () => ids[0]);
      expect(ok(await call('POST', `/v1/groups/${g.id}/contacts`, { contacts: thousand })).contacts).toBe(2);
    });

    it('searches a group by name and number prefix', async () => {
      const g = await group('Searchable');
      const inside = await contact({ phone_number: '+233209100001', name: 'Efua Inside', groups: [g.id] });
      await contact({ phone_number: '+233209100002', name: 'Efua Outside' });
      expect((await list(`?group=${g.id}&search=efua`)).data.map((c: { id: string }) => c.id)).toEqual([
        inside.id,
      ]);
      expect((await list(`?group=${g.id}&search=0209100`)).data.map((c: { id: string }) => c.id)).toEqual([
        inside.id,
      ]);
      expect((await list('?search=0209100')).data).toHaveLength(2);
    });

    it('deletes a group: its contacts stay, no longer in it', async () => {
      const g = await group('Short-lived');
      const c = await contact({ phone_number: mtn(), groups: [g.id] });
      expect(ok(await call('DELETE', `/v1/groups/${g.id}`))).toEqual({
        object: 'group',
        id: g.id,
        deleted: true,
      });
      expectError(await call('GET', `/v1/groups/${g.id}`), 404, 'resource_missing');
      expectError(await call('DELETE', `/v1/groups/${g.id}`), 404, 'resource_missing');
      expectError(await call('GET', `/v1/contacts?group=${g.id}`), 404, 'resource_missing');
      expect(ok(await call('GET', `/v1/contacts/${c.id}`)).groups).toEqual([]);
      expectError(
        await call('POST', '/v1/contacts', { phone_number: mtn(), groups: [g.id] }),
        404,
        'resource_missing',
      );
    });
  });

  describe('CSV imports', () => {
    it('imports a file in the background: local numbers, names, fields, the group, errors by line', async () => {
      const g = await group('Imported');
      const existing = await contact({
        phone_number: '+233245500001',
        name: 'Old Name',
        fields: { class: 'JSS 1', bus: '7' },
      });
      const file = [
        'Phone,Name,First Name,Class',
        '024 550 0001,,Akos,JSS 2', // the existing contact: fields merged, name kept
        '0245500002,Kwame Nkrumah,Kwame,"JSS 3, East"',
        'not a number,X,,',
        '0245500003,Ama,Ama', // a column short
        ',Nobody,,',
        '',
        '+233245500004,"Multi',
        'line",,',
      ].join('\r\n');
      const started = await csv(file, `?group=${g.id}&default_country=GH`);
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({
        object: 'contact_import',
        id: expect.stringMatching(/^imp_/),
        status: 'processing',
        group: g.id,
        default_country: 'GH',
        rows_total: 6,
      });
      const done = await finished(started.body.id);
      expect(done).toMatchObject({
        status: 'completed',
        rows_total: 6,
        rows_done: 6,
        created: 2,
        updated: 1,
        errors_count: 3,
      });
      expect(done.errors).toEqual([
        { line: 4, code: 'invalid_phone_number', message: expect.any(String) },
        { line: 5, code: 'invalid_row', message: 'Expected 4 columns as in the header, found 3' },
        { line: 6, code: 'missing_phone_number', message: expect.any(String) },
      ]);
      expect(ok(await call('GET', `/v1/contacts/${existing.id}`))).toMatchObject({
        name: 'Old Name',
        fields: { bus: '7', class: 'JSS 2', first_name: 'Akos' },
        groups: [g.id],
      });
      const members = (await list(`?group=${g.id}`)).data;
      expect(members.map((c: { phone_number: string }) => c.phone_number)).toEqual([
        '+233245500001',
        '+233245500002',
        '+233245500004',
      ]);
      expect(members[1]).toMatchObject({
        name: 'Kwame Nkrumah',
        fields: { first_name: 'Kwame', class: 'JSS 3, East' },
      });
      expect(members[2].name).toBe('Multi\r\nline'.replace(/\s+/g, ' '));
      expect(ok(await call('GET', `/v1/groups/${g.id}`)).contacts).toBe(3);
    });

    it('changes nothing when the same file is imported twice: no contact event is recorded', async () => {
      const g = await group('Twice');
      const rows = Array.from(
        { length: 2500 },
        (_, i) => `02431${String(i).padStart(5, '0')},Parent ${i},JSS ${i % 3}`,
      );
      const file = `phone_number,name,class\n${rows.join('\n')}\n`;
      const first = await finished((await csv(file, `?group=${g.id}&default_country=GH`)).body.id);
      expect(first).toMatchObject({ status: 'completed', created: 2500, updated: 0, errors_count: 0 });
      const events = t.app.get<EventStore>(EVENT_STORE);
      const before = await events.headPosition();
      const second = await finished((await csv(file, `?group=${g.id}&default_country=GH`)).body.id);
      expect(second).toMatchObject({
        status: 'completed',
        rows_done: 2500,
        created: 0,
        updated: 0,
        errors_count: 0,
      });
      const recorded = await events.readAll({ after: before, filter: { eventTypes: CONTACT_EVENT_TYPES } });
      expect(recorded).toEqual([]);
      expect(ok(await call('GET', `/v1/groups/${g.id}`)).contacts).toBe(2500);
    });

    it('keeps the first 100 errors by line and counts them all', async () => {
      const rows = Array.from({ length: 150 }, (_, i) => `bad-${i}`);
      const done = await finished((await csv(`to\n${rows.join('\n')}\n`)).body.id);
      expect(done).toMatchObject({ status: 'completed', rows_done: 150, created: 0, errors_count: 150 });
      expect(done.errors).toHaveLength(100);
      expect(done.errors[0].line).toBe(2);
      expect(done.errors[99].line).toBe(101);
    });

    it('refuses a file it cannot read before starting anything', async () => {
      const refused = async (response: Promise<TestResponse>, status: number, code: string) =>
        expectError(await response, status, code);
      await refused(csv('name,class\nAma,1\n'), 400, 'missing_phone_column');
      await refused(csv('phone,Class,class\n1,2,3\n'), 400, 'duplicate_column');
      await refused(csv('phone,2nd\n1,2\n'), 400, 'invalid_field_name');
      await refused(csv('phone\n'), 400, 'invalid_file');
      await refused(csv('\n\n'), 400, 'invalid_file');
      await refused(csv('phone,name\n0241234567,"never closed\n'), 400, 'invalid_file');
      await refused(csv('phone\n0241234567\n', '?default_country=XX'), 400, 'invalid_country');
      await refused(csv('phone\n0241234567\n', '?group=grp_0000000000000000000000'), 404, 'resource_missing');
      const wide = `phone,${Array.from({ length: 21 }, (_, i) => `f${i}`).join(',')}\n`;
      await refused(csv(wide), 400, 'too_many_fields');
      await refused(csv('phone\n0241234567\n', '', m.testKey, 'text/plain'), 415, 'unsupported_media_type');
      await refused(
        csv(JSON.stringify({ phone: 1 }), '', m.testKey, 'application/json'),
        415,
        'unsupported_media_type',
      );
      // Only this route takes CSV: the rest of the API still answers 415.
      await refused(
        t.request('POST', '/v1/contacts', {
          key: m.testKey,
          body: 'phone\n1\n',
          headers: { 'content-type': 'text/csv' },
        }),
        415,
        'unsupported_media_type',
      );
      expect(
        (
          await t.request('POST', '/v1/contact_imports', {
            body: 'phone\n1\n',
            headers: { 'content-type': 'text/csv' },
          })
        ).status,
      ).toBe(401);
    });

    it('refuses more than 200,000 rows and more than 20 MiB', async () => {
      const rows = '0241234567\n'.repeat(200_001);
      expectError(await csv(`phone\n${rows}`), 400, 'too_many_rows');
      const big = Buffer.alloc(20 * 1024 * 1024 + 1, 'a');
      expectError(await csv(big.toString()), 413, 'body_too_large');
    });

    it('reads an import of another environment as not found', async () => {
      const started = await csv('phone\n+233241234567\n');
      expectError(
        await call('GET', `/v1/contact_imports/${started.body.id}`, undefined, m.liveKey),
        404,
        'resource_missing',
      );
      expectError(
        await call('GET', '/v1/contact_imports/imp_0000000000000000000000'),
        404,
        'resource_missing',
      );
      await finished(started.body.id);
    });
  });

  describe('templates', () => {
    it('saves, lists, reads and deletes templates, naming their placeholders', async () => {
      const other = await createMerchant(t);
      const key = other.testKey;
      const a = ok(
        await call(
          'POST',
          '/v1/templates',
          { name: 'Reminder', message: 'Dear {{first_name|Parent}}, {{class}} resumes on Monday.' },
          key,
        ),
      );
      expect(a).toEqual({
        object: 'template',
        id: expect.stringMatching(/^tpl_/),
        name: 'Reminder',
        message: 'Dear {{first_name|Parent}}, {{class}} resumes on Monday.',
        placeholders: ['first_name', 'class'],
        created_at: expect.any(String),
      });
      const b = ok(
        await call(
          'POST',
          '/v1/templates',
          { name: 'Plain', message: 'Hello {{name}} ({{phone_number}})' },
          key,
        ),
      );
      expect(ok(await call('GET', '/v1/templates', undefined, key))).toEqual({
        object: 'list',
        data: [b, a],
        has_more: false,
      });
      expect(ok(await call('GET', `/v1/templates/${a.id}`, undefined, key))).toEqual(a);
      expectError(await call('GET', `/v1/templates/${a.id}`), 404, 'resource_missing');
      expect(ok(await call('DELETE', `/v1/templates/${a.id}`, undefined, key))).toEqual({
        object: 'template',
        id: a.id,
        deleted: true,
      });
      expectError(await call('GET', `/v1/templates/${a.id}`, undefined, key), 404, 'resource_missing');
      expect(ok(await call('GET', '/v1/templates', undefined, key)).data).toEqual([b]);
    });

    it('refuses anything else in braces: 400 invalid_template on message', async () => {
      for (const message of ['Dear {name}', 'Dear {{First Name}}', 'Dear {{name', 'Oops }}', 'Hi {{}}']) {
        const error = expectError(
          await call('POST', '/v1/templates', { name: 'x', message }),
          400,
          'invalid_template',
        );
        expect(error.param).toBe('message');
      }
      expectError(await call('POST', '/v1/templates', { name: 'x' }), 400, 'parameter_missing');
    });
  });

  it('pages an audience for campaigns: groups merged in number order, each number once, with opt-outs', async () => {
    const other = await createMerchant(t);
    const key = other.testKey;
    const a = await group('A', key);
    const b = await group('B', key);
    const numbers = ['+233240000005', '+233240000001', '+233240000004', '+233240000002', '+233240000003'];
    const made: Record<string, { id: string }> = {};
    for (const [i, number] of numbers.entries()) {
      const groups = i === 0 ? [a.id, b.id] : i % 2 ? [a.id] : [b.id];
      made[number] = await contact(
        { phone_number: number, name: `N${i}`, fields: { n: String(i) }, groups },
        key,
      );
    }
    const single = await contact({ phone_number: '+233240000000' }, key);
    ok(await call('POST', '/v1/opt_outs', { phone_number: '+233240000004' }, key));
    const walletId = other.wallets.TEST;
    const queries = t.app.get(QueryBus);
    const seen: { phoneNumber: string; optedOut: boolean; fields: Record<string, string> }[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const result: { members: typeof seen; next: string | null } = await queries.execute(
        new AudiencePage(
          walletId,
          { groups: [a.id, b.id], contacts: [single.id, made['+233240000001'].id] },
          after,
          2,
          pages === 0,
        ),
      );
      expect(result.members.length).toBeLessThanOrEqual(2);
      seen.push(...result.members);
      after = result.next;
      pages++;
    } while (after !== null && pages < 10);
    expect(seen.map((m) => m.phoneNumber)).toEqual([
      '+233240000000',
      '+233240000001',
      '+233240000002',
      '+233240000003',
      '+233240000004',
      '+233240000005',
    ]);
    expect(seen.filter((m) => m.optedOut).map((m) => m.phoneNumber)).toEqual(['+233240000004']);
    expect(seen[5]).toMatchObject({ fields: { n: '0' } });
    ok(await call('DELETE', `/v1/groups/${b.id}`, undefined, key));
    await expect(
      queries.execute(new AudiencePage(walletId, { groups: [a.id, b.id] }, null, 10)),
    ).rejects.toMatchObject({
      code: 'resource_missing',
      param: 'audience.groups[1]',
    });
    await expect(
      queries.execute(new AudiencePage(m.wallets.TEST, { groups: [a.id] }, null, 10)),
    ).rejects.toMatchObject({ code: 'resource_missing', param: 'audience.groups[0]' });
  });

  it('rebuilds every audience read model from the log to the same lists (projections:rebuild)', async () => {
    const g = await group('Rebuilt');
    await contact({ phone_number: mtn(), name: 'Rebuilt One', groups: [g.id] });
    const before = {
      contacts: await list('?limit=100'),
      group: await list(`?group=${g.id}`),
      search: await list('?search=rebuilt'),
      groups: ok(await call('GET', '/v1/groups?limit=100')),
      templates: ok(await call('GET', '/v1/templates?limit=100')),
    };
    await t.app.get(CommandBus).execute(new RebuildProjections());
    expect({
      contacts: await list('?limit=100'),
      group: await list(`?group=${g.id}`),
      search: await list('?search=rebuilt'),
      groups: ok(await call('GET', '/v1/groups?limit=100')),
      templates: ok(await call('GET', '/v1/templates?limit=100')),
    }).toEqual(before);
  });
});
